// Requests, checks and groups of setup() and teardown() are measured, as
// in k6: tagged group "::setup" / "::teardown", not iterations.
import http from 'k6/http';
import { check, group } from 'k6';

export const options = {
  iterations: 2,
  thresholds: {
    'http_reqs{group:::setup}': ['count==1'],
    'http_reqs{group:::setup::login}': ['count==1'],
    'http_reqs{group:::teardown}': ['count==1'],
    'checks{group:::setup}': ['rate==1'],
  },
};

export function setup() {
  const r = http.get(`${__ENV.BASE}/hello`);
  check(r, { 'setup got hello': (r) => r.body === 'hello' });
  group('login', () => http.get(`${__ENV.BASE}/setcookie`));
  return { n: 1 };
}

export default function (data) {
  http.get(`${__ENV.BASE}/hello?n=${data.n}`);
}

export function teardown() {
  http.get(`${__ENV.BASE}/hello`);
}
