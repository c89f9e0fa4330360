'use strict';
// s3fault from Node, without dependencies: the admin API of a running proxy (AdminClient), and
// `s3fault origin` / `s3fault proxy` started on 127.0.0.1 port 0 for a test and stopped by
// their PID (startOrigin, startProxy). The binary is $S3FAULT_BIN, else `s3fault` on the PATH.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

/** An answer other than 2xx: status, the API's error code and message, and every mistake. */
class AdminError extends Error {
  constructor(status, code, message, details) {
    super([`${status} ${code}: ${message}`, ...details.map((d) => `  ${d}`)].join('\n'));
    Object.assign(this, { status, code, details });
  }
}

/**
 * The AdminError for an answer other than 2xx. A body in the documented shape,
 * {"error": {"code", "message", "details"}}, gives its fields; any other body (not JSON, or JSON
 * of another shape, from something in front of the API) is the message as it came, so nothing the
 * server said is lost.
 */
function adminError(status, statusText, payload) {
  const text = payload.toString();
  let problem;
  try { problem = JSON.parse(text)?.error; } catch { problem = undefined; }
  if (problem === null || typeof problem !== 'object' || Array.isArray(problem)) {
    return new AdminError(status, 'http_error', text.trim() || statusText, []);
  }
  return new AdminError(status, String(problem.code ?? ''), String(problem.message ?? ''),
    Array.isArray(problem.details) ? problem.details : []);
}

/** One proxy's admin API (`s3fault proxy --admin HOST:PORT`; `token`: its --admin-token). */
class AdminClient {
  constructor(url, token) {
    this.url = url.replace(/\/$/, '');
    this.token = token;
  }

  async rules() { return (await this.call('GET', '/rules')).rules; }
  async rule(name) { return this.call('GET', `/rules/${name}`); }
  async counters(name) { return (await this.rule(name)).counters; }
  /** A one-line rule, a rule object, a list of either, or a YAML rules document. */
  async add(rules) { return (await this.change('POST', rules)).rules; }
  async replace(rules) { return (await this.change('PUT', rules)).rules; }
  async preset(...names) { return (await this.call('POST', '/rules', { presets: names })).rules; }
  async delete(name) { await this.call('DELETE', name ? `/rules/${name}` : '/rules'); }
  async enable(name) { await this.call('POST', `/rules/${name}/enable`); }
  async disable(name) { await this.call('POST', `/rules/${name}/disable`); }
  async stats() { return this.call('GET', '/stats'); }
  async metrics() { return (await this.request('GET', '/metrics')).toString(); }

  change(method, rules) {
    if (typeof rules === 'string') {
      return /^\s*(rules:|seed:|-)/.test(rules)
        ? this.call(method, '/rules', undefined, rules)
        : this.call(method, '/rules', { fault: rules });
    }
    if (Array.isArray(rules) && rules.length > 0 && rules.every((r) => typeof r === 'string')) {
      return this.call(method, '/rules', { faults: rules });
    }
    return this.call(method, '/rules', rules);
  }

  async call(method, route, body, raw) {
    const text = (await this.request(method, route, raw ?? (body === undefined ? undefined
      : JSON.stringify(body)))).toString();
    return text ? JSON.parse(text) : {};
  }

  async request(method, route, body) {
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const answer = await fetch(this.url + route, { method, headers, body });
    const payload = Buffer.from(await answer.arrayBuffer());
    if (!answer.ok) throw adminError(answer.status, answer.statusText, payload);
    return payload;
  }
}

function binary() {
  if (process.env.S3FAULT_BIN) return process.env.S3FAULT_BIN;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir, 's3fault');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('no s3fault binary: set S3FAULT_BIN or put s3fault on the PATH');
}

/** `s3fault SUBCOMMAND --listen 127.0.0.1:0 ARGS`, resolved once it prints `listening on URL`. */
function start(subcommand, args, timeoutMs = 20000) {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `s3fault-${subcommand}-`));
  const logPath = path.join(logDir, `${subcommand}.stderr.log`);
  const child = spawn(binary(), [subcommand, '--listen', '127.0.0.1:0', ...args],
    { stdio: ['ignore', 'pipe', fs.openSync(logPath, 'w')] });
  const lines = [];
  const server = {
    pid: child.pid,
    logPath,
    stdoutLines: lines,
    url: undefined,
    log: () => fs.readFileSync(logPath, 'utf8'),
    /** SIGTERM to our PID; resolves to the exit status (the proxy drains first). */
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve(child.exitCode ?? -1);
        return;
      }
      child.once('exit', (code) => resolve(code ?? -1));
      child.kill('SIGTERM');
    }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`s3fault ${subcommand} did not start:\n${server.log()}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!server.url) reject(new Error(`s3fault ${subcommand} exited ${code}:\n${server.log()}`));
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('listening on ') && !server.url) {
        server.url = line.slice('listening on '.length);
        clearTimeout(timer);
        resolve(server);
      }
    });
  });
}

/** An in-memory `s3fault origin`; `anonymous` (default) takes unsigned requests. */
function startOrigin({ anonymous = true, args = [] } = {}) {
  const keys = anonymous ? ['--anonymous'] : [];
  return start('origin', [...keys, '--log-level', 'warn', ...args]);
}

/** `s3fault proxy` in front of `upstream` with its admin API: `.admin` is its AdminClient. */
async function startProxy(upstream, { args = [] } = {}) {
  const proxy = await start('proxy', ['--upstream', upstream, '--admin', '127.0.0.1:0', ...args]);
  const adminLine = proxy.stdoutLines.find((line) => line.startsWith('admin on '));
  proxy.admin = new AdminClient(adminLine.slice('admin on '.length));
  return proxy;
}

module.exports = { AdminClient, AdminError, binary, startOrigin, startProxy };
