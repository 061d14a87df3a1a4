import { check } from 'k6';
export const options = { vus: 2, iterations: 4 };
export function setup() { return { token: 'abc', n: 3 }; }
export default function (data) {
  check(data, { 'setup data reaches the VU': (d) => d.token === 'abc' });
  data.n = 99; // this VU's copy: neither other VUs nor teardown see it
}
export function teardown(data) { if (data.n !== 3) throw new Error('teardown got a changed copy'); }
export function handleSummary(data) {
  return { stdout: 'iterations=' + data.metrics.iterations.values.count + '\n', [__ENV.SUMMARY_FILE]: JSON.stringify({ checks: data.metrics.checks.values.rate }) };
}
