// Debian's chromium driven by puppeteer-core (no browser download) for the dashboard scripts,
// reaching the admin port and nothing else: no DNS, every other address to a closed local
// port, none of its background fetches.
import puppeteer from "puppeteer-core";

const isolation = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  "--proxy-server=127.0.0.1:9", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--no-default-browser-check"];

export function launchIsolated() {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", ...isolation],
  });
}

/// Records every request of `page` that leaves `url`'s origin, into the returned list.
export function requestsOutside(page, url) {
  const outside = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(new URL(url).origin)) outside.push(request.url());
  });
  return outside;
}

/// Finds and clicks in one task of the page: the dashboard redraws its tables every second, so an
/// element found in one round trip (as page.click and $eval do) may be a detached copy by the
/// next, and a click on it would act on a row no longer shown.
export async function click(page, selector) {
  await page.waitForSelector(selector);
  await page.evaluate((sel) => document.querySelector(sel).click(), selector);
}
