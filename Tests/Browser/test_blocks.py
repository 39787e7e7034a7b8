"""A scheduled block at the gateway, on a phone: the page says until when and counts nothing; the week's
one emergency pass lets one pause through, marked as such; then the page says the pass is used."""
import json
import urllib.request

from selenium.webdriver.common.by import By

from test_phone import as_phone, wait


def test_a_blocked_app_offers_the_weeks_one_emergency_pass(grove, browser):
    as_phone(browser)
    grove.cli("apps", "enable", "youtube")
    grove.cli("apps", "block", "youtube", "daily 00:00-24:00")
    key = json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/gate").read())["key"]
    usage = lambda: json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/usage?appId=youtube").read())
    browser.get(grove.url + "/pause/youtube?key=" + key + "&to=https://www.youtube.com/watch%3Fv%3D1")
    blocked = browser.find_element(By.CSS_SELECTOR, "[data-testid=blocked]")
    assert "YouTube is blocked until" in blocked.text and "daily 00:00-24:00" in blocked.text
    assert usage() == [], "a block counts no attempt"
    browser.shot("blocked")
    blocked.find_element(By.CSS_SELECTOR, "[data-testid=emergency]").click()
    # The pass's pause runs as any other, said to be the pass.
    wait(browser).until(lambda b: "session=" in b.current_url)
    assert "emergency=" not in browser.current_url, "a reload must not ask for the pass again"
    assert "emergency pass" in browser.find_element(By.CSS_SELECTOR, "[data-testid=emergency-used]").text
    wait(browser).until(lambda b: "Take a breath" not in b.find_element(By.ID, "content").text)
    assert browser.find_element(By.CSS_SELECTOR, "[data-page=pause]").get_attribute("data-target") == "https://www.youtube.com/watch?v=1"
    browser.refresh()
    wait(browser).until(lambda b: "Take a breath" not in b.find_element(By.ID, "content").text)
    passes = json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/emergency-pass").read())
    assert passes["available"] is False and passes["usedBy"]["emergencyPass"] is True
    assert len(json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/sessions?appId=youtube").read())) == 1
    browser.get(grove.url + "/pause/youtube?key=" + key)
    assert "emergency pass is used" in browser.find_element(By.CSS_SELECTOR, "[data-testid=pass-used]").text
