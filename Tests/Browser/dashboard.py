#!/usr/bin/env python3
"""The dashboard page in headless Chromium, driven by Selenium.

BrowserTests (Swift) starts `widget-host serve` and runs this script with
the address (secret included), a handshake directory and a screenshot path.
Three times, the script asks the Swift side for a store write by creating
`ready-N` in the handshake directory; the Swift side writes its Nth
document and creates `written-N`. The hotel photo's colour (r,g,b) is the
fifth argument. Every wait is on a condition with a generous deadline: CI runs on
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
    address, handshake, screenshot, driver_path, photo = sys.argv[1:6]
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
        run(browser, address, origin, handshake, screenshot, [int(part) for part in photo.split(",")])
    finally:
        browser.quit()


def card_text(browser, title):
    for card in browser.find_elements(By.CSS_SELECTOR, "article.card"):
        if card.find_element(By.TAG_NAME, "h2").text == title:
            return card.text
    return ""


def store_write(handshake, number):
    open(os.path.join(handshake, f"ready-{number}"), "w").close()
    wait_for(f"the test's store write {number}", lambda: os.path.exists(os.path.join(handshake, f"written-{number}")))


def listening(browser):
    """The page's event stream is open and the server listens (no change after this can be missed)."""
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "ready"


# The colour at the middle of a picture as the page drew it: a same-origin
# <img> drawn on a canvas (Selenium's script runs outside the page's CSP).
PIXEL = """
const image = arguments[0];
if (!image.complete || image.naturalWidth === 0) return null;
const canvas = document.createElement("canvas");
canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
const context = canvas.getContext("2d");
context.drawImage(image, 0, 0);
const pixel = context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
return [pixel[0], pixel[1], pixel[2], image.naturalWidth, image.naturalHeight];
"""


def run(browser, address, origin, handshake, screenshot, photo):
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
    wait_for("the page's event stream", lambda: listening(browser))
    store_write(handshake, 1)
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

    # Checkout's screen shows the Afterpay logo as a picture, not its alt text.
    browser.find_element(By.LINK_TEXT, "Checkout").click()
    logo = wait_for("Checkout's logo", lambda: browser.find_element(By.CSS_SELECTOR, "#screen img[alt='Pay in 4']"))
    logo_pixel = wait_for("the logo to load", lambda: browser.execute_script(PIXEL, logo))
    step(f"Checkout's screen shows the logo picture, {logo_pixel[3]}x{logo_pixel[4]}")
    browser.back()
    wait_for("the dashboard after Back", lambda: len(browser.find_elements(By.CSS_SELECTOR, "article.card")) >= 4)

    # A full screen is live too: Trips' screen changes in place when the store does.
    browser.find_element(By.LINK_TEXT, "My Trips").click()
    wait_for("Trips' screen with AZ61", lambda: "AZ61" in browser.find_element(By.ID, "screen").text)
    trip_url = browser.current_url
    browser.execute_script("window.__sameDocument = 'screen'")
    wait_for("the screen's event stream", lambda: listening(browser))
    store_write(handshake, 2)
    wait_for("the screen to show the Paris trip", lambda: "IB3436" in browser.find_element(By.ID, "screen").text)
    assert browser.execute_script("return window.__sameDocument") == "screen", "the screen reloaded"
    assert browser.current_url == trip_url, f"the address moved to {browser.current_url}"
    step("a store write updated the open Trips screen live, no reload")

    # The booking's screen: the hotel photo's pixels are the served picture's, not its alt text.
    browser.find_element(By.PARTIAL_LINK_TEXT, "Open booking B-1042").click()
    image = wait_for("the hotel photo", lambda: browser.find_element(By.CSS_SELECTOR, "#screen img[alt^='Photo of']"))
    booking_url = browser.current_url
    image_alt = image.get_attribute("alt")
    pixel = wait_for("the hotel photo to load", lambda: browser.execute_script(PIXEL, image))
    assert all(abs(got - want) <= 3 for got, want in zip(pixel[:3], photo)), f"the photo's middle pixel is {pixel[:3]}, not {photo}"
    assert not browser.find_elements(By.CSS_SELECTOR, "#screen span.image"), "a picture shows its alt text"
    step(f"the hotel photo's pixels are rgb{tuple(pixel[:3])} ({pixel[3]}x{pixel[4]}), the served picture's")
    browser.save_screenshot(screenshot.replace(".png", "-booking.png"))

    # A broken picture, swapped in live, shows its alt text instead (the server refuses it; the page's script replaces it).
    wait_for("the booking's event stream", lambda: listening(browser))
    store_write(handshake, 3)
    alt = wait_for("the broken photo's alt text", lambda: browser.find_elements(By.CSS_SELECTOR, "#screen span.image[role='img']"))[0]
    assert alt.text == image_alt, f"the placeholder says {alt.text!r}, not {image_alt!r}"
    assert not browser.find_elements(By.CSS_SELECTOR, "#screen img"), "a broken picture is still an <img>"
    step(f"a broken photo shows its alt text: {alt.text}")

    # Every screen has its own address: Back and Forward move between them, and an address alone opens its screen.
    browser.back()
    wait_for("Trips' screen after Back", lambda: browser.current_url == trip_url and browser.find_elements(By.ID, "screen"))
    browser.forward()
    wait_for("the booking after Forward", lambda: browser.current_url == booking_url and "B-1042" in browser.find_element(By.ID, "screen").text)
    browser.get(origin + "/w/crypto/exchange?id=kraken")
    wait_for("the Kraken screen from its address", lambda: "Kraken" in browser.find_element(By.ID, "screen").text)
    step("Back and Forward follow the screens; a deep link's address opens its screen")

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
