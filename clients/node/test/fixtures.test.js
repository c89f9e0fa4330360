'use strict';
// The Node client as a user's tests use it: an origin and a proxy for each test, faults added
// through the admin API changing what fetch gets, counters counting it, mistakes refused with
// every one named, and the processes stopped with status 0.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { AdminError, startOrigin, startProxy } = require('..');

async function withProxy(body) {
  const origin = await startOrigin();
  const proxy = await startProxy(origin.url);
  try {
    await fetch(`${origin.url}/node-bucket`, { method: 'PUT' });
    await fetch(`${origin.url}/node-bucket/hello.txt`, { method: 'PUT', body: 'hello world' });
    await body(origin, proxy);
  } finally {
    assert.equal(await proxy.stop(), 0, proxy.log());
    await origin.stop();
  }
}

test('a fault added through the admin API reaches the client', () => withProxy(async (_, proxy) => {
  const url = `${proxy.url}/node-bucket/hello.txt`;
  assert.equal(await (await fetch(url)).text(), 'hello world');
  await proxy.admin.add('error SlowDown op=GetObject first=1 name=slow');
  const refused = await fetch(url);
  assert.equal(refused.status, 503);
  assert.match(await refused.text(), /<Code>SlowDown<\/Code>/);
  assert.equal((await fetch(url)).status, 200);
  assert.equal((await proxy.admin.counters('slow')).injected, 1);
}));

test('presets, lists and YAML documents; a header stripped only through the proxy',
  () => withProxy(async (origin, proxy) => {
    await proxy.admin.preset('rustfs-parts-count');
    await proxy.admin.add(['strip-header ETag op=GetObject name=no-etag', 'delay 1ms name=d']);
    await proxy.admin.add('rules:\n  - name: from-yaml\n    actions: [{type: reset}]\n    match: {operations: [PutObject]}\n');
    assert.deepEqual((await proxy.admin.rules()).map((r) => r.name),
      ['rustfs-parts-count', 'no-etag', 'd', 'from-yaml']);
    assert.ok((await fetch(`${origin.url}/node-bucket/hello.txt`)).headers.get('etag'));
    assert.equal((await fetch(`${proxy.url}/node-bucket/hello.txt`)).headers.get('etag'), null);
    await proxy.admin.delete();
    assert.deepEqual(await proxy.admin.rules(), []);
  }));

test('a rule with mistakes is refused with every one named', () => withProxy(async (_, proxy) => {
  await assert.rejects(proxy.admin.add(['truncate abc', 'error Nope']), (error) => {
    assert.ok(error instanceof AdminError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_rules');
    assert.equal(error.details.length, 2);
    return true;
  });
  await assert.rejects(proxy.admin.counters('nope'), { status: 404, code: 'no_such_rule' });
}));
