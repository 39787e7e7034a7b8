"""The browser extension (extension/) loaded into a real headless Chromium, in front of a "distracting"
site served on another loopback port, with the real `grove serve` behind it."""
import base64, hashlib, html, http.server, json, os, shutil, threading, time, urllib.parse, urllib.request
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import ROOT, SHOTS, free_port, patient_wait

EXTENSION = os.path.join(ROOT, "extension")


def extension_id():
    """Chromium's id for an extension with a `key`: the first 128 bits of the key's SHA-256, in a-p."""
    with open(os.path.join(EXTENSION, "manifest.json")) as f:
        der = base64.b64decode(json.load(f)["key"])
    return "".join(chr(ord("a") + int(c, 16)) for c in hashlib.sha256(der).hexdigest()[:32])


class Site(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/favicon.ico":
            self.server.paths.append(self.path)
        body = f"<!doctype html><title>Distraction</title><h1 id='site'>The distracting site: {self.path}</h1>".encode()
        if self.path.startswith("/link?"):
            # Another site's page that links to Grove's gateway (`to`).
            to = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)["to"][0]
            body = f"<!doctype html><title>Elsewhere</title><a id='go' href='{html.escape(to)}'>go</a>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def site():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Site)
    server.paths = []  # every request that reached the site, in order
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()


@pytest.fixture()
def extended(request):
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                f"--load-extension={EXTENSION}", f"--disable-extensions-except={EXTENSION}",
                "--disable-features=DisableLoadExtensionCommandLineSwitch"]:
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    os.makedirs(SHOTS, exist_ok=True)
    driver.shot = lambda name: driver.save_screenshot(os.path.join(SHOTS, f"{request.node.name}-{name}.png"))
    yield driver
    driver.quit()


def wait(browser, seconds=60):
    return patient_wait(browser, seconds)


def configure(browser, grove, grace=None):
    """The extension's options page: Grove's address and the minutes after Proceed."""
    browser.get(f"chrome-extension://{extension_id()}/options.html")
    form = browser.find_element(By.ID, "settings")
    field = form.find_element(By.NAME, "grove")
    field.clear()
    field.send_keys(grove.url)
    form.find_element(By.TAG_NAME, "button").click()
    wait(browser).until(EC.text_to_be_present_in_element((By.ID, "saved"), "Saved"))
    for app, minutes in (grace or {}).items():
        box = wait(browser).until(EC.presence_of_element_located((By.NAME, f"grace-{app}")))
        box.clear()
        box.send_keys(str(minutes))
        browser.find_element(By.CSS_SELECTOR, "#settings button").click()
        wait(browser).until(EC.text_to_be_present_in_element((By.ID, "saved"), "Saved"))


def usage(grove):
    rows = json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/usage?appId=distraction").read())
    return rows[0] if rows else {}


def on_site(browser, url):
    """The site itself loaded, and it stays (no redirect arrives after it)."""
    wait(browser).until(EC.presence_of_element_located((By.ID, "site")))
    time.sleep(0.5)
    return browser.current_url == url and browser.find_elements(By.ID, "site")


def test_a_gated_site_goes_through_the_pause_then_opens_where_it_was_going(grove, site, extended):
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--enable")
    configure(extended, grove)
    target = site.url + "/watch?v=abc&t=1"

    # Intercepted: Grove's gateway, carrying the address asked for; the first visit today. The browser
    # blocked the request itself: not one byte reached the site.
    extended.get(target)
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    wait(extended).until(lambda b: "session=" in b.current_url)
    assert site.paths == [], site.paths
    assert "First visit to Distraction" in extended.find_element(By.ID, "attempts").text
    extended.shot("gateway")
    # A reload is the same pause, not another attempt.
    extended.refresh()
    wait(extended).until(lambda b: "Take a breath" not in b.find_element(By.ID, "content").text)
    assert usage(grove)["totalSessions"] == 1

    # After the countdown, Proceed lands on the exact address, path and query included.
    wait(extended, 30).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#gateway-done [data-action=gateway-proceed]"))).click()
    wait(extended).until(lambda b: b.current_url == target)
    assert on_site(extended, target)
    assert site.paths == ["/watch?v=abc&t=1"], site.paths
    # Inside the grace window the site opens freely.
    extended.get(site.url + "/again")
    assert on_site(extended, site.url + "/again")
    assert usage(grove)["totalSessions"] == 1

    # With no grace window, the next visit is gated again: one more attempt, counted once.
    configure(extended, grove, grace={"distraction": 0})
    extended.get(grove.url + "/forest")
    before = len(site.paths)
    extended.get(target)
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    wait(extended).until(EC.text_to_be_present_in_element((By.ID, "attempt-count"), "1"))
    assert len(site.paths) == before, site.paths
    # With no grace window, Proceed still lands on the site (this one visit), and the next visit asks again.
    wait(extended, 30).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#gateway-done [data-action=gateway-proceed]"))).click()
    wait(extended).until(lambda b: b.current_url == target)
    assert on_site(extended, target)
    extended.get(grove.url + "/forest")
    extended.get(target)
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    wait(extended).until(EC.text_to_be_present_in_element((By.ID, "attempt-count"), "2"))
    # Exit takes the tab back to where it was before the site was asked for.
    extended.find_element(By.CSS_SELECTOR, "#gateway-wait [data-action=gateway-exit]").click()
    wait(extended).until(lambda b: b.current_url == grove.url + "/forest")
    stats = usage(grove)
    assert (stats["totalSessions"], stats["completedSessions"], stats["exitedSessions"]) == (3, 2, 1)

    # A disabled app is not gated.
    grove.cli("apps", "disable", "distraction")
    configure(extended, grove)
    extended.get(target)
    assert on_site(extended, target)
    assert usage(grove)["totalSessions"] == 3

    # Grove stopped: the web is not blocked, and the extension says it is off.
    grove.cli("apps", "enable", "distraction")
    configure(extended, grove)
    grove.server.terminate()
    grove.server.wait(timeout=10)
    extended.get(target)
    assert on_site(extended, target)
    extended.get(f"chrome-extension://{extension_id()}/options.html")
    wait(extended).until(EC.text_to_be_present_in_element((By.ID, "status"), "Grove is off"))
    extended.shot("off")


def test_while_a_tree_grows_the_site_waits_behind_it_even_in_the_grace_window(grove, site, extended):
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--enable")
    configure(extended, grove)
    # A pause waited out and proceeded a moment ago (imported, rather than waited for): the grace window is
    # open, and the site opens freely.
    post = lambda path, body: urllib.request.urlopen(urllib.request.Request(
        grove.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")).read()
    # (Another app's pause is the template: the one imported must be Distraction's latest.)
    grove.cli("apps", "enable", "youtube")
    pause = json.loads(post("/api/v1/pause/sessions", {"appId": "youtube", "platform": "web"}))["session"]
    post(f"/api/v1/pause/sessions/{pause['id']}/finish", {"completionStatus": "exited", "actionOutcome": "exit_to_home"})
    export = json.loads(urllib.request.urlopen(grove.url + "/api/v1/export").read())
    stamp = lambda seconds: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - seconds))
    proceeded = dict(export["gatewaySessions"][0], id="6A0B1C2D-0000-4000-8000-000000000001", appId="distraction", startTimestamp=stamp(20),
                     endTimestamp=stamp(4), completionStatus="completed", actionOutcome="proceed_to_app", timeSpent=15)
    export["gatewaySessions"].append(proceeded)
    post("/api/v1/import", export)
    extended.get(site.url + "/free")
    assert on_site(extended, site.url + "/free")
    # A focus session starts: no grace while the tree grows; Grove's page says so, and counts nothing.
    grove.cli("focus", "start", "--length", "25m")
    extended.get(grove.url + "/forest")
    extended.get(site.url + "/later")
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    growing = wait(extended).until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=growing]")))
    assert "Your tree is growing" in growing.text
    extended.shot("growing")
    # Back to focus takes the tab back to where it was.
    growing.find_element(By.CSS_SELECTOR, "[data-action=growing-back]").click()
    wait(extended).until(lambda b: b.current_url == grove.url + "/forest")
    assert usage(grove)["totalSessions"] == 1
    # On the focus allowlist (`grove apps allow`), the grace window holds again and the tree keeps growing.
    grove.cli("apps", "allow", "distraction", "--always")
    configure(extended, grove)
    extended.get(site.url + "/allowed")
    assert on_site(extended, site.url + "/allowed")
    assert json.loads(urllib.request.urlopen(grove.url + "/api/v1/focus/current").read())["session"]["state"] == "active"


def test_after_its_minutes_on_the_site_the_pause_comes_back_as_a_reminder(grove, site, extended):
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--enable")
    configure(extended, grove)
    # Three seconds rather than the options' whole minutes: the same alarm, set from the options page.
    extended.execute_async_script("chrome.storage.local.set({remindAfter: 0.05}).then(arguments[0])")
    extended.get(site.url + "/feed")
    wait(extended).until(lambda b: "session=" in b.current_url)
    wait(extended, 30).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#gateway-done [data-action=gateway-proceed]"))).click()
    wait(extended).until(lambda b: b.current_url == site.url + "/feed")
    # Still there after the reminder's minutes: Grove's pause again, saying how long it has been.
    wait(extended, 20).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction") and "reminder=" in b.current_url)
    reminder = wait(extended).until(EC.presence_of_element_located((By.ID, "reminder")))
    assert "You have been on Distraction for" in reminder.text
    extended.shot("reminder")


def test_a_link_from_another_site_counts_no_attempt_until_the_pause_is_started(grove, site, browser):
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--enable")
    browser.get(site.url + "/link?to=" + urllib.parse.quote(grove.url + "/pause/distraction", safe=""))
    browser.find_element(By.ID, "go").click()
    wait(browser).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    start = wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "[data-action=gateway-start]")))
    # The page has run its script: it asked instead of counting.
    assert "Take a breath" in browser.find_element(By.ID, "content").text
    assert "session=" not in browser.current_url
    assert usage(grove).get("totalSessions", 0) == 0
    start.click()
    wait(browser).until(lambda b: "session=" in b.current_url)
    assert usage(grove)["totalSessions"] == 1


def test_the_extension_decides_which_addresses_are_an_apps_pages_as_grove_does(extended):
    """gate.js's owns(), run in Chromium on the extension's own page, against the case file that GroveCoreTests
    holds `SocialApp.owns` to: the two faces of one rule cannot drift apart."""
    with open(os.path.join(EXTENSION, "owns-cases.json")) as f:
        cases = json.load(f)["cases"]
    extended.get(f"chrome-extension://{extension_id()}/options.html")
    answers = extended.execute_async_script(
        """const [cases, done] = arguments;
        import("./gate.js").then((gate) => done(cases.map((c) => gate.owns({webURL: c.webURL}, c.address))),
                                 (error) => done(String(error)));""", cases)
    assert isinstance(answers, list), answers
    wrong = [(c["webURL"], c["address"], c["owns"]) for c, a in zip(cases, answers) if a != c["owns"]]
    assert not wrong
    # The browser's own blocking rule for an app's pages decides the same, for every case it can see
    # (a request URL is http or https).
    blocked = extended.execute_async_script(
        """const [cases, done] = arguments;
        import("./gate.js").then((gate) => done(cases.map((c) => {
            const pattern = gate.pagesPattern({webURL: c.webURL});
            return pattern !== null && new RegExp(pattern, "i").test(c.address);
        })), (error) => done(String(error)));""", cases)
    assert isinstance(blocked, list), blocked
    wrong = [(c["webURL"], c["address"], c["owns"]) for c, b in zip(cases, blocked) if b != c["owns"]]
    assert not wrong


def test_the_extension_gates_paths_as_grove_does(extended):
    """gate.js's gates(), run in Chromium, against the case file GroveCoreTests holds `SocialApp.gates` to;
    and the browser's blocking pattern never blocks what gates() lets through, and blocks every gated
    address whose path is not percent-encoded, as the browser sends it (dot segments resolved)."""
    with open(os.path.join(EXTENSION, "gates-cases.json")) as f:
        cases = json.load(f)["cases"]
    extended.get(f"chrome-extension://{extension_id()}/options.html")
    answers = extended.execute_async_script(
        """const [cases, done] = arguments;
        import("./gate.js").then((gate) => done(cases.map((c) => {
            const app = {webURL: c.webURL, gatedPaths: c.gatedPaths};
            let sent = null;
            try { sent = new URL(c.address).href; } catch {}
            const pattern = gate.pagesPattern(app);
            return [gate.gates(app, c.address), sent !== null && pattern !== null && new RegExp(pattern, "i").test(sent)];
        })), (error) => done(String(error)));""", cases)
    assert isinstance(answers, list), answers
    wrong = [(c["address"], c["gatedPaths"], c["gates"]) for c, (g, _) in zip(cases, answers) if g != c["gates"]]
    assert not wrong
    overblocked = [c["address"] for c, (g, b) in zip(cases, answers) if b and not g]
    assert not overblocked
    missed = [c["address"] for c, (g, b) in zip(cases, answers) if g and not b and "%" not in c["address"]]
    assert not missed


def test_the_extension_knows_the_focus_allowlist_as_grove_does(extended):
    """gate.js's allowedDuring(), run in Chromium, against the case file GroveCoreTests holds
    `SocialApp.isAllowed(duringSessionTagged:)` to."""
    with open(os.path.join(EXTENSION, "focus-allowed-cases.json")) as f:
        cases = json.load(f)["cases"]
    extended.get(f"chrome-extension://{extension_id()}/options.html")
    answers = extended.execute_async_script(
        """const [cases, done] = arguments;
        import("./gate.js").then((gate) => done(cases.map((c) => gate.allowedDuring({focusAllowed: c.focusAllowed}, c.tags))),
            (error) => done(String(error)));""", cases)
    assert isinstance(answers, list), answers
    wrong = [(c["focusAllowed"], c["tags"], c["allowed"]) for c, a in zip(cases, answers) if a != c["allowed"]]
    assert not wrong


def test_only_the_gated_part_of_a_site_meets_the_pause(grove, site, extended):
    """`grove apps add … --path /shorts`: the rest of the site opens without a pause; a Shorts address
    is blocked before a byte reaches the site, and a page that moves itself there (as YouTube's own
    links do, without loading a page) goes to Grove's pause too."""
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--path", "/Shorts/", "--enable")
    configure(extended, grove)
    extended.get(site.url + "/watch?v=1")
    assert on_site(extended, site.url + "/watch?v=1")
    extended.get(site.url + "/shorts/abc")
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    assert "/shorts/abc" not in site.paths, site.paths
    extended.get(site.url + "/feed")
    assert on_site(extended, site.url + "/feed")
    extended.execute_script("history.pushState({}, '', '/shorts/xyz')")
    wait(extended).until(lambda b: b.current_url.startswith(grove.url + "/pause/distraction"))
    assert "xyz" in urllib.parse.unquote(extended.current_url)
