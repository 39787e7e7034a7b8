"""axe-core (the release bundled in PyPI's axe-playwright-python wheel, run through Selenium) on every
page of the web app, in light and in dark mode, on a desktop and at a phone's 390 px: no serious or critical
WCAG 2 A/AA violation."""
import json, os, time
from datetime import datetime, timedelta
import pytest

try:
    import axe_playwright_python
    AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")).read()
except (ImportError, OSError):  # .ci/run installs it; a bare machine skips rather than fails to import
    AXE = None

PAGES = ["", "focus", "forest", "stats", "timers", "intentions", "themes", "settings", "pause", "review", "content",
         "setup", "pause/news", "offline", "no-such-page"]


def seed(grove):
    yesterday = (datetime.now() - timedelta(days=1)).strftime("%Y-%m-%d")
    grove.cli("focus", "log", "--start", f"{yesterday} 09:00", "--end", f"{yesterday} 09:25", "--tag", "essay")
    grove.cli("focus", "log", "--start", f"{yesterday} 10:00", "--end", f"{yesterday} 10:10", "--abandoned")
    grove.cli("timer", "add", "Tea", "--duration", "4m", "--todo", "Kettle", "--todo", "Cup")
    grove.cli("intention", "set", "Breathe before email")
    grove.cli("intention", "set", "Finish the essay", "--scope", "week")
    grove.cli("apps", "add", "news", "--name", "News", "--url", "https://news.example.com/", "--enable")
    grove.cli("setup", "--skip")


def violations(browser):
    browser.execute_script(AXE)
    result = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
           .then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}])));
    """)
    return [v for v in json.loads(result) if v.get("impact") in ("serious", "critical")]


@pytest.mark.skipif(AXE is None, reason="axe-playwright-python (for its axe.min.js) is not installed")
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device, size", [("desktop", (1280, 900)), ("phone", (390, 844))])
def test_every_page_is_clean_of_serious_accessibility_violations(grove, browser, scheme, device, size):
    seed(grove)
    browser.set_window_size(*size)
    browser.set_script_timeout(30)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    found = {}
    for page in PAGES:
        browser.get(f"{grove.url}/{page}")
        time.sleep(0.3)
        # Every page as it looks, light and dark, desktop and phone (CI keeps artifacts/screenshots/).
        browser.shot(f"{scheme}-{device}-{(page or 'today').replace('/', '-')}")
        for v in violations(browser):
            found.setdefault(page or "/", []).append(
                f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:4]))
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
