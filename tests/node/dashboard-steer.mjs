// Works the s3fault dashboard as a person would, in Debian's chromium (puppeteer-core): opens
// one exchange of the list, adds a rule, tries a bad one, edits a rule and deletes another, and
// reports as one JSON line what the page showed at each step.
//   node dashboard-steer.mjs URL EXCHANGE_ID ADD_SPEC BAD_SPEC EDIT_RULE EDIT_SPEC DELETE_RULE
// URL is the dashboard's address with its #token=...; the caller checks the proxy's side.
import { click, launchIsolated, requestsOutside } from "./dashboard-browser.mjs";

const [url, exchangeId, addSpec, badSpec, editRule, editSpec, deleteRule] = process.argv.slice(2);
if (!deleteRule) {
  console.error("usage: node dashboard-steer.mjs URL EXCHANGE_ID ADD_SPEC BAD_SPEC EDIT_RULE " +
    "EDIT_SPEC DELETE_RULE");
  process.exit(2);
}

const browser = await launchIsolated();

/// Types `spec` into the add box and clicks "Add rule"; the message the page then shows.
async function addRule(page, spec) {
  await page.$eval("#new-rule", (input, text) => { input.value = text; }, spec);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" &&
    r.url().endsWith("/rules"));
  await click(page, "#add-rule");
  const answer = await answered;
  await page.waitForFunction(() => document.getElementById("rule-message").textContent !== "");
  const message = await page.$eval("#rule-message", (m) => ({ text: m.textContent, className: m.className }));
  await page.$eval("#rule-message", (m) => { m.textContent = ""; });
  return { status: answer.status(), ...message };
}

/// The opened exchange as the page shows it: its data-detail fields, heads and curl line.
async function openedExchange(page, id) {
  await click(page, `#recent tr[data-exchange="${id}"]`);
  await page.waitForSelector(`#detail[data-exchange="${id}"]:not([hidden])`);
  return page.$eval("#detail", (detail) => {
    const fields = {};
    for (const td of detail.querySelectorAll("[data-detail]")) fields[td.dataset.detail] = td.dataset.value;
    const heads = { request: [], response: [] };
    for (const tr of detail.querySelectorAll("tr[data-header]")) {
      heads[tr.dataset.header].push([tr.cells[0].textContent, tr.cells[1].textContent]);
    }
    return { fields, heads, curl: detail.querySelector("#curl").textContent, text: detail.innerText };
  });
}

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1800 });
  const outside = requestsOutside(page, url);
  await page.goto(url);
  const exchange = await openedExchange(page, exchangeId);
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
  // The filters: "faulted only", then a key prefix as well; the rows left, by exchange id.
  const rowsShown = () => page.$$eval("#recent tbody tr[data-exchange]", (rows) => rows.map((r) => Number(r.dataset.exchange)));
  await page.$eval("#filter-faulted", (box) => { box.checked = true; box.dispatchEvent(new Event("input")); });
  const faultedOnly = await rowsShown();
  await page.$eval("#filter-key", (input) => { input.value = "k1"; input.dispatchEvent(new Event("input")); });
  const faultedUnderK1 = await rowsShown();
  await page.$eval("#filter-faulted", (box) => { box.checked = false; box.dispatchEvent(new Event("input")); });
  const underK1 = await rowsShown();
  await page.$eval("#filter-key", (input) => { input.value = ""; input.dispatchEvent(new Event("input")); });
  const filters = { faultedOnly, faultedUnderK1, underK1 };
  const added = await addRule(page, addSpec);
  const refused = await addRule(page, badSpec);

  // Edit: the rule's one-line form becomes a text box; the new text is saved with PUT.
  await click(page, `td[data-rule-actions="${editRule}"] button[data-action="edit"]`);
  const input = `input[data-edit-rule="${editRule}"]`;
  await page.waitForSelector(input);
  const shownForEdit = await page.$eval(input, (i) => i.value);
  await page.$eval(input, (i, text) => { i.value = text; }, editSpec);
  const saved = page.waitForResponse((r) => r.request().method() === "PUT");
  await click(page, `td[data-key="rule/${editRule}/fault"] button[data-action="save"]`);
  const edit = { status: (await saved).status(), shownForEdit };
  // Redrawn from /rules: the rule's new one-line form, as the proxy writes it.
  await page.waitForFunction((name, before) => {
    const cell = document.querySelector(`td[data-key="rule/${name}/fault"]`);
    return cell && !cell.querySelector("input") && cell.textContent !== before;
  }, { timeout: 10000 }, editRule, shownForEdit);
  edit.shownAfter = await page.$eval(`td[data-key="rule/${editRule}/fault"]`, (c) => c.textContent);

  const deleted = page.waitForResponse((r) => r.request().method() === "DELETE");
  await click(page, `td[data-rule-actions="${deleteRule}"] button[data-action="delete"]`);
  const deleteStatus = (await deleted).status();
  await page.waitForFunction((name) => !document.querySelector(`input[data-rule="${name}"]`),
    { timeout: 10000 }, deleteRule);
  const rulesShown = await page.$$eval("input[data-rule]", (boxes) => boxes.map((b) => b.dataset.rule));
  console.log(JSON.stringify({ exchange, filters, added, refused, edit, deleteStatus, rulesShown, outside }));
} finally {
  await browser.close();
}
