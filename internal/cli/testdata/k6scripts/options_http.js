import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 3, noConnectionReuse: true, userAgent: 'my-agent/1.0', tags: { team: 'qa' } };
export default function () {
  const r = http.get(`${__ENV.BASE}/echo`);
  check(r, { 'user agent from options': (x) => x.json('headers.User-Agent') === 'my-agent/1.0', 'a new connection each time': (x) => x.timings.connecting > 0 });
}
