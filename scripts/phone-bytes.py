#!/usr/bin/env python3
"""The bytes a phone downloads for the web app: the first load of Today, then a repeat load once the
service worker holds the app's files; and how soon a focus session started offline reaches the terminal
(`grove focus status`) once the connection returns. Headless Chromium with a phone's profile (390 x 844, a mobile
user agent) against a real `grove serve` on loopback, through a counting TCP relay: every byte the
server sends, to the page and to its service worker alike (headers, compressed bodies, the live event
stream's opening).

    scripts/phone-bytes.py [--binary .build/release/grove]

Needs chromium, chromium-driver and selenium (as the browser tests do)."""
import argparse, os, shutil, socket, subprocess, tempfile, threading, time, urllib.request
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CountingRelay:
    """Relays 127.0.0.1:port to the server, counting the bytes the server sends back."""

    def __init__(self, target):
        self.target, self.sent, self.lock = target, 0, threading.Lock()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            upstream = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self.pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self.pipe, args=(upstream, client, True), daemon=True).start()

    def pipe(self, source, sink, counted):
        try:
            while data := source.recv(65536):
                if counted:
                    with self.lock:
                        self.sent += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def take(self):
        with self.lock:
            sent, self.sent = self.sent, 0
        return sent


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/grove")
    binary = parser.parse_args().binary
    home = tempfile.mkdtemp(prefix="grove-bytes-")
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port)], env=dict(os.environ, GROVE_HOME=home, GROVE_HOLD_NOTIFICATIONS="off"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    relay = CountingRelay(port)
    page = f"http://127.0.0.1:{relay.port}"
    driver = None
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/api/v1/focus/stats", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        # Past the first-run welcome, as a person who set Grove up sees Today.
        urllib.request.urlopen(urllib.request.Request(url + "/api/v1/setup/skip", method="POST", data=b"",
                                                      headers={"Origin": url}), timeout=5)
        options = Options()
        for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
            options.add_argument(arg)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        relay.take()
        driver.get(page + "/")
        driver.set_script_timeout(30)
        driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true))")
        time.sleep(2)  # the worker's install fetches the app's files: counted with the first load
        first = relay.take()
        driver.get(page + "/")
        time.sleep(2)
        repeat = relay.take()
        print(f"first load of Today, the worker's install included: {first:,} bytes")
        print(f"repeat load, the app's files from the worker's cache: {repeat:,} bytes")
        # Offline (DevTools' network conditions): start a session on the Focus page, then reconnect and
        # ask the terminal until it shows the session.
        driver.get(page + "/focus")
        time.sleep(1)
        driver.execute_cdp_cmd("Network.enable", {})
        conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, **conditions})
        driver.find_element("id", "start").click()
        while not driver.execute_script("return document.querySelector('#queue [data-queued]') !== null"):
            time.sleep(0.05)
        back = time.perf_counter()
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, **conditions})
        env = dict(os.environ, GROVE_HOME=home, GROVE_HOLD_NOTIFICATIONS="off")
        while '"session"' not in subprocess.run([binary, "focus", "status", "--json"], env=env, capture_output=True,
                                                text=True, timeout=30).stdout:
            if time.perf_counter() - back > 60:
                raise SystemExit("the session started offline never reached the terminal")
        print(f"focus started offline, in the terminal after reconnecting: {(time.perf_counter() - back) * 1000:,.0f} ms")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
