'use strict';
// Every refusal of the admin API reaches the caller as an AdminError with the status, the code
// and the message: a 401 for a missing token, and answers in no documented shape at all (a body
// that is not JSON, or JSON of another shape, as something in front of the API may send).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { AdminClient, AdminError, startOrigin, startProxy } = require('..');

const TOKEN = 'a-token-of-at-least-16-characters';

test('a missing token is an AdminError with code and message', async () => {
  const origin = await startOrigin();
  const proxy = await startProxy(origin.url, { args: ['--admin-token', TOKEN] });
  try {
    await assert.rejects(proxy.admin.rules(), (error) => {
      assert.ok(error instanceof AdminError);
      assert.equal(error.status, 401);
      assert.equal(error.code, 'unauthorized');
      assert.match(error.message, /Authorization: Bearer/);
      assert.deepEqual(error.details, []);
      return true;
    });
    assert.deepEqual(await new AdminClient(proxy.admin.url, TOKEN).rules(), []);
  } finally {
    assert.equal(await proxy.stop(), 0, proxy.log());
    await origin.stop();
  }
});

/** A server on 127.0.0.1 port 0 answering every request with `status` and `body`. */
async function withAnswer(status, body, use) {
  const server = http.createServer((_, response) => response.writeHead(status).end(body));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(new AdminClient(`http://127.0.0.1:${server.address().port}`));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

for (const body of ['<html><body>502 Bad Gateway</body></html>',
  '{"error": "Unauthorized", "message": "a token is needed"}', '["not", "an", "object"]']) {
  test(`an error body of another shape keeps its text: ${body}`, () => withAnswer(502, body,
    (client) => assert.rejects(client.rules(), (error) => {
      assert.ok(error instanceof AdminError);
      assert.equal(error.status, 502);
      assert.equal(error.code, 'http_error');
      assert.equal(error.message, `502 http_error: ${body}`);
      return true;
    })));
}

test('an empty error body is named by the reason', () => withAnswer(503, '',
  (client) => assert.rejects(client.rules(),
    { status: 503, code: 'http_error', message: '503 http_error: Service Unavailable' })));
