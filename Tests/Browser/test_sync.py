"""Grove Sync in a real browser: a change made on one device shows in another device's open page."""
import contextlib, json, os, shutil, subprocess, tempfile, time, urllib.request
from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import free_port, grove_binary, stop_server
from test_web import wait

PASSWORD = b"correct horse battery"


def wait_for(url):
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except Exception:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answered at {url}")


def start_sync_server(binary, root, env, processes):
    """A sync server on its own SQLite file in `root` with the user ada (PASSWORD), added to
    `processes` (stopped by the caller); returns its URL once it answers."""
    port = free_port()
    database = os.path.join(root, "sync-server.sqlite")
    subprocess.run([binary, "sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input=PASSWORD,
                   env=env, check=True, capture_output=True)
    processes.append(subprocess.Popen([binary, "sync-server", "--port", str(port), "--database", database],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    url = f"http://127.0.0.1:{port}"
    wait_for(url + "/healthz")
    return url


def devices(root):
    """The laptop's and the desktop's environments: a GROVE_HOME of its own each, in `root`."""
    return {name: dict(os.environ, GROVE_HOME=os.path.join(root, name), NO_COLOR="1") for name in ("laptop", "desktop")}


def link_both(binary, sync_url, env):
    """The laptop and the desktop linked to the account ada at `sync_url`, in plain."""
    for name in ("laptop", "desktop"):
        subprocess.run([binary, "sync", "login", sync_url, "--user", "ada", "--password-stdin", "--plain", "--device-name", name],
                       input=PASSWORD, env=env[name], check=True, capture_output=True)


@contextlib.contextmanager
def cleaned_up(browser, root):
    """The processes a test starts, with its files in `root`: whatever happens, the page is left first
    (open on a server being stopped, its next live refresh fails in the console), then every process
    is stopped and `root` removed."""
    processes = []
    try:
        yield processes
    finally:
        browser.get("about:blank")
        for process in processes:
            stop_server(process)
        shutil.rmtree(root, ignore_errors=True)


def test_a_change_on_one_device_shows_in_another_devices_open_page_within_two_seconds(browser):
    with linked_devices(browser, "grove-sync-browser-") as (binary, env, processes, web_port):
        web_url = f"http://127.0.0.1:{web_port}"
        # The desktop's web app, kept in step in the background, open on its timers page.
        processes.append(subprocess.Popen([binary, "serve", "--sync", "--port", str(web_port)], env=env["desktop"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(web_url + "/api/v1/timers")
        browser.get(web_url + "/timers")
        wait(browser).until(lambda b: "on" in b.find_element(By.ID, "live").get_attribute("class"))
        # On the laptop: a new timer, then `grove sync`.
        subprocess.run([binary, "timer", "add", "Made on the laptop", "--duration", "25m"], env=env["laptop"], check=True, capture_output=True)
        subprocess.run([binary, "sync"], env=env["laptop"], check=True, capture_output=True)
        started = time.monotonic()
        wait(browser, 5).until(EC.text_to_be_present_in_element((By.TAG_NAME, "main"), "Made on the laptop"))
        elapsed = time.monotonic() - started
        browser.shot("synced")
        assert elapsed < 2.0, f"took {elapsed:.2f} s"
        # And back: a timer added in the desktop's own CLI reaches the laptop with one `grove sync`.
        subprocess.run([binary, "timer", "add", "Made on the desktop", "--duration", "5m"], env=env["desktop"], check=True, capture_output=True)
        deadline = time.time() + 5
        while time.time() < deadline:
            subprocess.run([binary, "sync"], env=env["laptop"], check=True, capture_output=True)
            if "Made on the desktop" in subprocess.run([binary, "timer", "list"], env=env["laptop"], check=True, capture_output=True, text=True).stdout:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the desktop's timer never reached the laptop")


@contextlib.contextmanager
def linked_devices(browser, prefix):
    """The laptop and the desktop (a GROVE_HOME each, in a new folder named `prefix`…) linked in plain
    to a sync server of their own as ada; yields the binary, their environments, the list of processes
    to stop and a free port for the desktop's web app — everything stopped and removed after."""
    root = tempfile.mkdtemp(prefix=prefix + "-")
    binary = grove_binary()
    env = devices(root)
    with cleaned_up(browser, root) as processes:
        sync_url = start_sync_server(binary, root, env["laptop"], processes)
        link_both(binary, sync_url, env)
        yield binary, env, processes, free_port()


def sync_state(web_url, reached, never):
    """Waits until the Grove's own sync reaches a state (`GET /api/v1/sync`), which it does by itself;
    the 30 s bound only ends a test whose state never comes."""
    deadline = time.time() + 30
    while not reached(json.loads(urllib.request.urlopen(web_url + "/api/v1/sync").read())):
        assert time.time() < deadline, never
        time.sleep(0.05)


def tap(browser, element):
    """A tap on `element` as a person makes it: scrolled to the middle of the screen first (the phone's
    tab bar covers the bottom)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def steadily(action, timeout=30):
    """Runs `action` — which finds what it needs afresh — until it goes through: this Grove's background
    sync may re-render Settings (its "last synced" line) between finding an element and tapping it. A
    page swap is the only failure retried; the bound only ends a test whose page never settles."""
    deadline = time.time() + timeout
    while True:
        try:
            return action()
        except (StaleElementReferenceException, ElementNotInteractableException):
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def sync_card(browser):
    """Settings' sync card as it is now: its text, and whether its unlock form is open (read in one
    go, to be read again by `steadily` when a re-render swaps it meanwhile)."""
    card = browser.find_element(By.CSS_SELECTOR, "[data-testid=sync]")
    return card.text, card.find_element(By.CSS_SELECTOR, "[data-testid=sync-unlock]").get_attribute("open") is not None


def unlock_with(browser, secret, shot=None):
    """Types `secret` into Settings' unlock form as it is now and taps Unlock. This Grove's background
    sync keeps failing while it is locked, and each failure may re-render the page: a form swapped
    while it was typed into (the tap would send an empty one) is typed into again."""
    def attempt():
        field = browser.find_element(By.CSS_SELECTOR, "[data-testid=sync-unlock] input[name=passphrase]")
        field.clear()
        field.send_keys(secret)
        button = browser.find_element(By.XPATH, "//*[@data-testid='sync-unlock']//button[normalize-space()='Unlock']")
        # Read back from the field found: a swapped page makes it stale (and `steadily` types again).
        assert field.get_attribute("value") == secret
        if shot:
            browser.shot(shot)
        tap(browser, button)
    steadily(attempt)


def opened(browser, testid):
    """The `<details>` of `testid` on the page as it is now, opened by a tap if it is closed."""
    details = browser.find_element(By.CSS_SELECTOR, f"[data-testid={testid}]")
    if details.get_attribute("open") is None:
        tap(browser, details.find_element(By.TAG_NAME, "summary"))
    return details


def test_a_phone_unlocks_an_account_encrypted_on_another_device_and_sees_its_data(browser):
    """The account was encrypted on the laptop; the Grove this phone opens (linked before) stops
    syncing until it holds the key. On the phone: Settings → Sync → the passphrase, once (a wrong one
    is said and changes nothing), and the laptop's sealed timer arrives."""
    from test_phone import as_phone
    passphrase = b"a long and private passphrase"
    with linked_devices(browser, "grove-sync-unlock-") as (binary, env, processes, web_port):
        web_url = f"http://127.0.0.1:{web_port}"
        subprocess.run([binary, "timer", "add", "Sealed on the laptop", "--duration", "25m"], env=env["laptop"], check=True, capture_output=True)
        subprocess.run([binary, "sync", "encrypt", "--passphrase-stdin"], input=passphrase, env=env["laptop"], check=True, capture_output=True)
        processes.append(subprocess.Popen([binary, "serve", "--sync", "--port", str(web_port)], env=env["desktop"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(web_url + "/api/v1/timers")
        # The desktop's first background sync finds the account encrypted and stops: said as such.
        sync_state(web_url, lambda sync: sync["encryption"] == "locked", "the desktop never found its account locked")
        as_phone(browser)
        browser.get(web_url + "/settings")
        text, unlock_open = steadily(lambda: sync_card(browser))
        assert "Encrypted on another device: this Grove has no key yet" in text
        assert "Not encrypted" not in text and "Encrypted end to end" not in text
        assert unlock_open, "a locked Grove shows the unlock form open"
        browser.expected_errors.append("/api/v1/sync/unlock - Failed to load resource: the server responded with a status of 422")
        unlock_with(browser, "not the passphrase at all")
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "toast"), "does not open this account's key"))
        assert "Encrypted end to end" not in browser.find_element(By.CSS_SELECTOR, "[data-testid=sync]").text
        unlock_with(browser, passphrase.decode(), shot="sync-unlock-phone")
        wait(browser).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "[data-testid=sync]"), "Encrypted end to end with key"))
        assert "Change the passphrase" in browser.find_element(By.CSS_SELECTOR, "[data-testid=sync]").text
        browser.get(web_url + "/timers")
        wait(browser).until(EC.text_to_be_present_in_element((By.TAG_NAME, "main"), "Sealed on the laptop"))


def test_a_phone_whose_key_was_replaced_on_the_laptop_is_asked_once_and_loses_nothing(browser):
    """A device lost: the laptop makes a new key. The Grove this phone opens held the old one: its next
    sync stops before sending what it made, Settings says the key was replaced with the unlock form
    open, and the passphrase, once, brings both devices' timers together."""
    from test_phone import as_phone
    passphrase = b"a long and private passphrase"
    with linked_devices(browser, "grove-sync-new-key-") as (binary, env, processes, web_port):
        web_url = f"http://127.0.0.1:{web_port}"

        def run(device, *args, secret=None):
            return subprocess.run([binary, *args], input=secret, env=env[device], check=True, capture_output=True).stdout
        run("laptop", "sync", "encrypt", "--passphrase-stdin", secret=passphrase)
        run("desktop", "sync", "unlock", "--passphrase-stdin", secret=passphrase)
        processes.append(subprocess.Popen([binary, "serve", "--sync", "--port", str(web_port)], env=env["desktop"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(web_url + "/api/v1/timers")
        sync_state(web_url, lambda sync: sync["encryption"] == "end-to-end" and sync.get("lastSuccess"), "the desktop never synced")
        made = json.loads(run("laptop", "sync", "new-key", "--passphrase-stdin", "--json", secret=passphrase))
        run("laptop", "timer", "add", "Sealed under the new key", "--duration", "25m")
        run("laptop", "sync")
        # The desktop hears of the laptop's timer, which its key does not open: it stops, and says so.
        sync_state(web_url, lambda sync: sync["encryption"] == "replaced", "the desktop never found its key replaced")
        run("desktop", "timer", "add", "Made on the desktop meanwhile", "--duration", "10m")
        as_phone(browser)
        browser.get(web_url + "/settings")
        text, unlock_open = steadily(lambda: sync_card(browser))
        assert made["keyId"] in text and made["replaced"] in text and "was replaced on another device" in text, text
        assert unlock_open, "a Grove whose key was replaced shows the unlock form open"
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=sync-encrypt]")

        unlock_with(browser, passphrase.decode())
        wait(browser).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "[data-testid=sync]"), f"Encrypted end to end with key {made['keyId']}"))
        browser.get(web_url + "/timers")
        wait(browser).until(EC.text_to_be_present_in_element((By.TAG_NAME, "main"), "Sealed under the new key"))
        run("laptop", "sync")
        assert "Made on the desktop meanwhile" in run("laptop", "timer", "list").decode()
        # Then the phone makes a new key itself: its recovery code shown once, and the laptop asked once.
        sync_state(web_url, lambda sync: sync["pending"] == 0, "the desktop never sent what it made")
        browser.get(web_url + "/settings")

        def ask_for_a_new_key():
            field = opened(browser, "sync-new-key").find_element(By.CSS_SELECTOR, "input[name=passphrase]")
            field.clear()
            # Typed into (the field has the focus): the page is not re-rendered from under it from here on.
            field.send_keys(passphrase.decode())
            tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-testid=sync-new-key] button"))
        steadily(ask_for_a_new_key)
        code = browser.find_element(By.CSS_SELECTOR, "[data-testid=recovery-code]")
        wait(browser, 60).until(lambda b: code.is_displayed() and len(code.text.split()) == 17)
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "toast"), "seals nothing now"))
        renewed = json.loads(urllib.request.urlopen(web_url + "/api/v1/sync").read())["keyId"]
        assert renewed != made["keyId"]
        stopped = subprocess.run([binary, "sync"], env=env["laptop"], capture_output=True, text=True)
        assert stopped.returncode != 0 and "grove sync unlock" in stopped.stderr, stopped.stderr


def test_an_account_encrypted_from_a_phone_shows_its_recovery_code_once(browser):
    """Encrypting from the web: the passphrase typed twice (a mismatch is caught before anything is
    sent), then the recovery code, which stays on screen until the person says it is written down; a
    lost code is replaced by a new one, shown the same way."""
    from test_phone import as_phone
    root = tempfile.mkdtemp(prefix="grove-sync-encrypt-")
    binary = grove_binary()
    web_port = free_port()
    web_url = f"http://127.0.0.1:{web_port}"
    env = dict(os.environ, GROVE_HOME=os.path.join(root, "phone-grove"), NO_COLOR="1")
    with cleaned_up(browser, root) as processes:
        sync_url = start_sync_server(binary, root, env, processes)
        subprocess.run([binary, "sync", "login", sync_url, "--user", "ada", "--password-stdin", "--device-name", "home"],
                       input=PASSWORD, env=env, check=True, capture_output=True)
        processes.append(subprocess.Popen([binary, "serve", "--sync", "--port", str(web_port)], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(web_url + "/api/v1/timers")
        as_phone(browser)
        browser.get(web_url + "/settings")
        # A new account waits for its key: the form is open.
        form = browser.find_element(By.CSS_SELECTOR, "[data-testid=sync-encrypt] form")
        assert form.is_displayed()
        form.find_element(By.CSS_SELECTOR, "input[name=passphrase]").send_keys("a long and private passphrase")
        form.find_element(By.CSS_SELECTOR, "input[name=confirm]").send_keys("a long and private passphrasf")
        tap(browser, form.find_element(By.TAG_NAME, "button"))
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "toast"), "The two passphrases differ"))
        assert json.loads(urllib.request.urlopen(web_url + "/api/v1/sync").read())["encryption"] == "awaiting-key"
        confirm = form.find_element(By.CSS_SELECTOR, "input[name=confirm]")
        confirm.clear()
        confirm.send_keys("a long and private passphrase")
        tap(browser, form.find_element(By.TAG_NAME, "button"))
        code = browser.find_element(By.CSS_SELECTOR, "[data-testid=recovery-code]")
        wait(browser, 60).until(lambda b: code.is_displayed() and len(code.text.split()) == 17)
        words = code.text
        assert json.loads(urllib.request.urlopen(web_url + "/api/v1/sync").read())["encryption"] == "end-to-end"
        browser.shot("sync-recovery-phone")
        assert browser.find_element(By.CSS_SELECTOR, "[data-testid=recovery-code]").text == words
        tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=recovery-kept]"))
        wait(browser).until(EC.invisibility_of_element_located((By.CSS_SELECTOR, "[data-testid=recovery]")))
        assert "Encrypted end to end with key" in browser.find_element(By.CSS_SELECTOR, "[data-testid=sync]").text
        # The code written down is lost: a new one, with the passphrase, replaces it. First the page as
        # it stands once this Grove has sent everything (its own sync's commits re-render the page).
        sync_state(web_url, lambda sync: sync["pending"] == 0, "the sealed rows were never all sent")
        browser.get(web_url + "/settings")

        def ask_for_a_new_code():
            field = opened(browser, "sync-recovery-code").find_element(By.CSS_SELECTOR, "input[name=passphrase]")
            field.clear()
            # Typed into (the field has the focus): the page is not re-rendered from under it from here on.
            field.send_keys("a long and private passphrase")
            tap(browser, browser.find_element(By.CSS_SELECTOR, "[data-testid=sync-recovery-code] button"))
        steadily(ask_for_a_new_code)
        code = browser.find_element(By.CSS_SELECTOR, "[data-testid=recovery-code]")
        wait(browser, 60).until(lambda b: code.is_displayed() and len(code.text.split()) == 17)
        assert code.text != words, "a new code, not the old one"
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "toast"), "the old one opens nothing"))


def test_a_phone_goes_back_to_an_earlier_moment_after_seeing_what_would_change(browser):
    """Settings → Sync → "Go back to an earlier moment" on a phone: first what would change (nothing
    written), then — tapped again — the account as it stood then, on this Grove and the laptop."""
    from test_phone import as_phone
    with linked_devices(browser, "grove-sync-restore-") as (binary, env, processes, web_port):
        web_url = f"http://127.0.0.1:{web_port}"
        def laptop(*args):
            return subprocess.run([binary, *args], env=env["laptop"], check=True, capture_output=True, text=True).stdout
        laptop("timer", "add", "Essay", "--duration", "25m")
        laptop("sync")
        # The moment to go back to: the next whole second (the form's resolution), once the clock has
        # passed it — every change after it is the server's later than it.
        moment = int(time.time()) + 1
        while time.time() <= moment + 0.05:
            time.sleep(0.02)
        laptop("timer", "add", "Made after", "--duration", "10m")
        laptop("sync")
        processes.append(subprocess.Popen([binary, "serve", "--sync", "--port", str(web_port)], env=env["desktop"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(web_url + "/api/v1/timers")
        sync_state(web_url, lambda sync: sync.get("lastSuccess") is not None, "the desktop never synced")
        as_phone(browser)
        browser.get(web_url + "/settings")

        def ask_what_would_change():
            restore = opened(browser, "sync-restore")
            # The moment in the browser's own zone, as a person picks it in the form; asked at once (from
            # the tap on, the page is held for the answer).
            browser.execute_script("""const at = new Date(arguments[1] * 1000);
                arguments[0].value = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 19);""",
                                   restore.find_element(By.CSS_SELECTOR, "input[name=asOf]"), moment)
            tap(browser, restore.find_element(By.XPATH, ".//button[normalize-space()='What would change']"))
            return restore
        restore = steadily(ask_what_would_change)
        preview = restore.find_element(By.CSS_SELECTOR, "[data-testid=sync-restore-preview]")
        wait(browser).until(lambda _: "changes 1 records (0 back, 0 as they were, 1 made since removed)" in preview.text)
        assert "Made after" in urllib.request.urlopen(web_url + "/api/v1/timers").read().decode(), "nothing written before the second tap"
        browser.shot("sync-restore-phone")
        tap(browser, restore.find_element(By.CSS_SELECTOR, "[data-testid=sync-restore-apply]"))
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "toast"), "your other devices take it at their next sync"))
        browser.get(web_url + "/timers")
        wait(browser).until(EC.text_to_be_present_in_element((By.TAG_NAME, "main"), "Essay"))
        assert "Made after" not in browser.find_element(By.TAG_NAME, "main").text
        laptop("sync")
        assert "Made after" not in laptop("timer", "list") and "Essay" in laptop("timer", "list")
