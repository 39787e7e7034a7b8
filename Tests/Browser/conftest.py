"""Browser tests: the real `grove serve` driven by a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium). Screenshots of every page go to artifacts/screenshots/."""
import os, shutil, socket, subprocess, tempfile, time, urllib.request
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "artifacts", "screenshots")


class PatientWait(WebDriverWait):
    """A wait that looks again when the page it polls is mid-navigation.

    A click that navigates returns before the next page exists; a poll that lands in between is
    answered "aborted by navigation" (or finds the old page's element gone stale). Both mean "not
    yet", never a failure, so the wait polls on — still bounded by its timeout."""

    def until(self, method, message=""):
        def settled(driver):
            try:
                return method(driver)
            except WebDriverException as error:
                text = str(error)
                if isinstance(error, StaleElementReferenceException) or "navigat" in text or "target closed" in text:
                    return False
                raise
        return super().until(settled, message)


def patient_wait(browser, timeout=60, poll=0.05):
    return PatientWait(browser, timeout, poll_frequency=poll)


def grove_binary():
    path = os.environ.get("GROVE_BINARY") or os.path.join(ROOT, ".build", "debug", "grove")
    if not os.path.exists(path):
        subprocess.run(["swift", "build", "--product", "grove"], cwd=ROOT, check=True)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Grove:
    """A `grove serve` on a free loopback port with its own GROVE_HOME, plus the CLI on the same data."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="grove-browser-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # No hold on this machine's real notifications from the sessions these tests start.
        # A tree costs a minute; these tests watch real sessions end, so a tree costs a second here.
        self.env = dict(os.environ, GROVE_HOME=self.home, NO_COLOR="1", GROVE_HOLD_NOTIFICATIONS="off", GROVE_SHORTEST_TREE="1")
        self.server = subprocess.Popen([grove_binary(), "serve", "--port", str(self.port)], env=self.env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/v1/focus/current", timeout=1)
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("grove serve did not start")

    def cli(self, *args):
        return subprocess.run([grove_binary(), *args], env=self.env, check=True, capture_output=True, text=True).stdout

    def stop(self):
        stop_server(self.server, self.home)


def stop_server(server, home=None):
    """Ends a server this test started (TERM, then KILL after 10 s) and removes its data, if named."""
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    if home:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture()
def grove():
    g = Grove()
    yield g
    g.stop()


def chromium(*extra):
    """Debian's headless Chromium through its chromedriver, with `extra` arguments."""
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *extra]:
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


@pytest.fixture()
def browser(request):
    driver = chromium("--window-size=1280,900")
    driver.implicitly_wait(0)
    driver.expected_errors = []
    os.makedirs(SHOTS, exist_ok=True)
    driver.shot = lambda name: driver.save_screenshot(os.path.join(SHOTS, f"{request.node.name}-{name}.png"))
    yield driver
    # The 404 of a page a test visits on purpose (/no-such-page), or a refusal a test provokes (listed in
    # driver.expected_errors), is the answer it expects, not an error.
    expected = ["favicon", "/no-such-page", *driver.expected_errors]
    severe = [entry for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected)]
    driver.quit()
    assert not severe, f"browser console errors: {severe}"
