"""Grove reached from a phone: `grove serve` over HTTPS with a test certificate, for a public origin
(`grove.test`, which Chromium resolves to 127.0.0.1), in Chromium with a phone's profile. A browser
from elsewhere logs in with the password `grove serve password` set; guesses are throttled to 429; a
request for the public origin without a session — as a proxy would forward it — gets the login page,
never the data; signed-in browsers are listed and signed out."""
import base64, hashlib, os, signal, ssl, subprocess, tempfile, time, urllib.error, urllib.parse, urllib.request
import pytest
from selenium.webdriver.common.by import By

from conftest import SHOTS, chromium, free_port, grove_binary, stop_server
from test_phone import as_phone, wait

PASSWORD = "correct horse battery"
UNVERIFIED = ssl._create_unverified_context()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class RemoteGrove:
    """`grove serve --tls-certificate … --public-origin https://grove.test:PORT` with a password set."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="grove-remote-")
        self.port = free_port()
        self.origin = f"https://grove.test:{self.port}"
        self.env = dict(os.environ, GROVE_HOME=self.home, NO_COLOR="1", GROVE_HOLD_NOTIFICATIONS="off")
        cert, key = os.path.join(self.home, "cert.pem"), os.path.join(self.home, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=grove.test",
                        "-addext", "subjectAltName=DNS:grove.test,IP:127.0.0.1"], check=True, capture_output=True, timeout=60)
        # The certificate's key, which the phone's Chromium trusts as if a public authority had signed it
        # (its origin is then a secure one: installable, with a service worker).
        public = subprocess.run(["openssl", "x509", "-in", cert, "-pubkey", "-noout"], check=True, capture_output=True, timeout=60)
        der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public.stdout, check=True,
                             capture_output=True, timeout=60)
        self.spki = base64.b64encode(hashlib.sha256(der.stdout).digest()).decode()
        subprocess.run([grove_binary(), "serve", "password"], input=PASSWORD + "\n", env=self.env, check=True,
                       capture_output=True, text=True, timeout=60)
        self.server = subprocess.Popen(
            [grove_binary(), "serve", "--port", str(self.port), "--tls-certificate", cert, "--tls-key", key,
             "--public-origin", self.origin], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"https://127.0.0.1:{self.port}/api/v1/focus/current", timeout=1, context=UNVERIFIED)
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("grove serve did not start over HTTPS")

    def request(self, path, host=None, headers=None, data=None):
        """One request to the server as a proxy would forward it: `Host` the public origin's, over TLS."""
        request = urllib.request.Request(f"https://127.0.0.1:{self.port}{path}", data=data, headers=dict(headers or {}))
        request.add_header("Host", host or f"grove.test:{self.port}")
        opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=UNVERIFIED))
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def cli(self, *args):
        return subprocess.run([grove_binary(), *args], env=self.env, check=True, capture_output=True, text=True, timeout=60).stdout

    def stop(self):
        stop_server(self.server, self.home)


@pytest.fixture()
def remote():
    r = RemoteGrove()
    yield r
    r.stop()


@pytest.fixture()
def phone(request, remote):
    driver = chromium("--window-size=390,844", "--host-resolver-rules=MAP grove.test 127.0.0.1",
                      f"--ignore-certificate-errors-spki-list={remote.spki}")
    os.makedirs(SHOTS, exist_ok=True)
    driver.shot = lambda name: driver.save_screenshot(os.path.join(SHOTS, f"{request.node.name}-{name}.png"))
    as_phone(driver)
    yield driver
    driver.quit()


def log_in(phone, password):
    field = wait(phone).until(lambda b: b.find_element(By.CSS_SELECTOR, "input[name=password]"))
    field.send_keys(password)
    field.submit()


def test_a_phone_logs_in_over_https_and_guesses_are_throttled(remote, phone):
    # Without a session the public origin shows the login page, never the data.
    phone.get(remote.origin + "/stats")
    wait(phone).until(lambda b: "/login" in b.current_url)
    phone.shot("login")
    log_in(phone, "not the password")
    wait(phone).until(lambda b: "not right" in b.find_element(By.CSS_SELECTOR, ".error").text)
    log_in(phone, PASSWORD)
    wait(phone).until(lambda b: b.current_url.endswith("/stats"))
    assert phone.find_element(By.TAG_NAME, "h1").is_displayed()
    cookie = phone.get_cookie("grove_session")
    assert cookie and cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict", cookie
    # A focus started on the phone is the terminal's too.
    phone.get(remote.origin + "/focus")
    wait(phone).until(lambda b: b.find_element(By.ID, "start").is_displayed())
    phone.find_element(By.ID, "start").click()
    wait(phone).until(lambda b: not b.find_element(By.ID, "start").is_displayed())
    assert "left" in remote.cli("focus", "status")
    phone.shot("focus")

    # Someone else guesses, through a proxy (X-Forwarded-For): five wrong passwords are checked (the
    # phone's one among them), the sixth is refused with 429 and Retry-After before anything is hashed.
    codes = []
    for attempt in range(1, 9):
        status, headers, _ = remote.request("/login", headers={"X-Forwarded-For": "203.0.113.5", "Origin": remote.origin,
                                                               "Content-Type": "application/x-www-form-urlencoded"},
                                            data=urllib.parse.urlencode({"password": f"guess-{attempt}"}).encode())
        codes.append(status)
        if status == 429:
            assert int(headers["Retry-After"]) >= 1
            break
    assert len(codes) >= 5 and set(codes[:-1]) == {401} and codes[-1] == 429, codes
    # The phone stays signed in; and the data stays behind the login for anyone without its session.
    phone.get(remote.origin + "/timers")
    assert phone.current_url.endswith("/timers")
    status, headers, _ = remote.request("/api/v1/export", headers={"X-Forwarded-For": "198.51.100.2"})
    assert status == 401
    status, headers, body = remote.request("/forest", headers={"X-Forwarded-For": "198.51.100.2"})
    assert status == 303 and headers["Location"].startswith("/login"), (status, headers)
    status, _, body = remote.request("/api/v1/focus/current", host=f"127.0.0.1:{remote.port}")
    assert status == 200, "straight from this machine, no login"

    # The phone is listed, and signing every browser out ends its session.
    phone.get(remote.origin + "/browsers")
    rows = phone.find_elements(By.CSS_SELECTOR, "[data-testid=browser]")
    assert len(rows) == 1 and "this browser" in rows[0].text and "Android" in rows[0].text, [r.text for r in rows]
    phone.shot("browsers")
    assert remote.cli("serve", "browsers").count("\n") == 1
    phone.find_element(By.CSS_SELECTOR, "button.danger").click()
    wait(phone).until(lambda b: "/login" in b.current_url)
    assert remote.cli("serve", "browsers").startswith("No browser")


def test_sighup_loads_a_renewed_certificate_and_a_bad_one_keeps_the_old(remote):
    """A renewed certificate (certbot, `tailscale cert`) is served to the next connection after SIGHUP,
    without a restart; a pair that cannot be loaded leaves the one in use."""
    def served():
        return ssl.get_server_certificate(("127.0.0.1", remote.port), timeout=10)

    first = served()
    cert, key = os.path.join(remote.home, "cert.pem"), os.path.join(remote.home, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "3", "-subj", "/CN=grove.test"], check=True, capture_output=True, timeout=60)
    renewed = open(cert).read()
    remote.server.send_signal(signal.SIGHUP)
    deadline = time.time() + 30
    while served() == first and time.time() < deadline:
        time.sleep(0.1)
    assert served().split() == renewed.split()
    # A broken pair: the renewed one stays in use, and the server stays up.
    with open(key, "w") as broken:
        broken.write("not a key\n")
    remote.server.send_signal(signal.SIGHUP)
    status, _, _ = remote.request("/api/v1/focus/current", host=f"127.0.0.1:{remote.port}")
    assert status == 200 and served().split() == renewed.split() and remote.server.poll() is None
