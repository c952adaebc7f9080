#!/usr/bin/env python3
"""The dashboard page in headless Chromium, driven by Selenium.

BrowserTests (Swift) starts `widget-host serve` and runs this script with
the address (secret included), a handshake directory and a screenshot path.
Half-way, the script asks the Swift side for a store write by creating
`ready` in the handshake directory; the Swift side writes and creates
`written`. Every wait is on a condition with a generous deadline: CI runs on
two busy cores. Prints one line per step passed; the first failure ends the
run with its reason on stderr and exit status 1.
"""
import json
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DEADLINE = 90  # seconds for any one condition


def wait_for(what, condition, seconds=DEADLINE):
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # a card swapped mid-query: try again
            last = error
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def step(text):
    print("ok:", text, flush=True)


def main():
    address, handshake, screenshot, driver_path = sys.argv[1:5]
    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(address))
    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking"]:
        options.add_argument(flag)
    browser_path = os.environ.get("CHROMIUM")
    if browser_path:
        options.binary_location = browser_path
    browser = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    browser.set_page_load_timeout(DEADLINE)
    try:
        run(browser, address, origin, handshake, screenshot)
    finally:
        browser.quit()


def card_text(browser, title):
    for card in browser.find_elements(By.CSS_SELECTOR, "article.card"):
        if card.find_element(By.TAG_NAME, "h2").text == title:
            return card.text
    return ""


def run(browser, address, origin, handshake, screenshot):
    browser.get(address)
    wait_for("the secret to leave the address", lambda: "secret=" not in browser.current_url)
    cards = wait_for("four shipped cards", lambda: len(browser.find_elements(By.CSS_SELECTOR, "article.card")) >= 4 and
                     browser.find_elements(By.CSS_SELECTOR, "article.card"))
    titles = [card.find_element(By.TAG_NAME, "h2").text for card in cards]
    for title in ["Checkout", "Crypto", "My Trips", "Ticker"]:
        assert title in titles, f"no card titled {title} among {titles}"
    wait_for("live content in the cards", lambda: "BTC" in card_text(browser, "Crypto") and "IB3436" in card_text(browser, "My Trips"))
    step(f"cards render: {', '.join(titles)}")

    # Keyboard: Tab moves focus from the page to a link or button, and on to another.
    body = browser.find_element(By.TAG_NAME, "body")
    body.click()
    seen = []
    for _ in range(3):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        active = browser.switch_to.active_element
        seen.append((active.tag_name, active.get_attribute("outerHTML")[:80]))
    focused = [tag for tag, _ in seen]
    assert all(tag in ("a", "button", "input") for tag in focused), f"Tab reached {seen}"
    assert len({html for _, html in seen}) == 3, f"focus did not move: {seen}"
    outline = browser.switch_to.active_element.value_of_css_property("outline-style")
    assert outline not in ("none", ""), f"the focused element shows no outline ({outline})"
    step(f"keyboard focus moves: {focused}, outline {outline}")

    # Live: a store write changes the Trips card with no reload (the marker survives).
    browser.execute_script("window.__sameDocument = 'yes'")
    open(os.path.join(handshake, "ready"), "w").close()
    wait_for("the test's store write", lambda: os.path.exists(os.path.join(handshake, "written")))
    wait_for("the Trips card to show AZ61", lambda: "AZ61" in card_text(browser, "My Trips"))
    assert browser.execute_script("return window.__sameDocument") == "yes", "the page reloaded"
    step("a store write updated the Trips card live, no reload")
    browser.save_screenshot(screenshot)
    step(f"screenshot {screenshot}")

    # An action: Crypto's screen, its Retrieve button, the screen again with a price.
    browser.find_element(By.LINK_TEXT, "Crypto").click()
    button = wait_for("Crypto's Retrieve button",
                      lambda: [b for b in browser.find_elements(By.TAG_NAME, "button") if b.text.strip() == "Retrieve"])[0]
    screen = browser.current_url
    button.click()
    wait_for("the screen after Retrieve", lambda: browser.current_url == screen and "BTC" in browser.find_element(By.TAG_NAME, "body").text)
    step(f"Retrieve posted and came back to {urllib.parse.urlsplit(screen).path}")
    browser.back()
    browser.back()
    wait_for("the dashboard after Back", lambda: len(browser.find_elements(By.CSS_SELECTOR, "article.card")) >= 4)
    step("the browser's Back button returns to the dashboard")

    # Nothing left for a third party: every resource came from our origin.
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    foreign = [name for name in resources if not name.startswith(origin)]
    assert not foreign, f"requests to other origins: {foreign}"
    step(f"{len(resources)} resources, all from {origin}")
    print(json.dumps({"titles": titles}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the reason, for the Swift test's message
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)
