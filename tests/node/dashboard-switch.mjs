// Clicks one rule's switch on the s3fault dashboard in Debian's chromium (puppeteer-core, no
// browser download) and reports, as one JSON line, what the page showed before and after.
//   node dashboard-switch.mjs URL RULE
// URL is the dashboard's address with its #token=...; the caller checks the proxy's side.
import { click, launchIsolated, requestsOutside } from "./dashboard-browser.mjs";

const [url, rule] = process.argv.slice(2);
if (!url || !rule) {
  console.error("usage: node dashboard-switch.mjs URL RULE");
  process.exit(2);
}

const browser = await launchIsolated();
try {
  const page = await browser.newPage();
  const outside = requestsOutside(page, url);
  await page.goto(url);
  const box = `input[data-rule="${rule}"]`;
  await page.waitForSelector(box);
  const before = await page.$eval(box, (b) => b.checked);
  const switched = page.waitForResponse((r) => r.request().method() === "POST" &&
    r.url().includes(`/rules/${encodeURIComponent(rule)}/`));
  await click(page, box);
  const answer = await switched;
  // The next refresh draws the rule from /rules again.
  const refreshes = await page.$eval("body", (b) => Number(b.dataset.refreshes || 0));
  await page.waitForFunction((n) => Number(document.body.dataset.refreshes || 0) > n + 1,
    { timeout: 10000 }, refreshes);
  const after = await page.$eval(box, (b) => b.checked);
  const status = await page.$eval("#status", (s) => s.textContent);
  console.log(JSON.stringify({ before, after, post: answer.url(), post_status: answer.status(),
    status, outside }));
} finally {
  await browser.close();
}
