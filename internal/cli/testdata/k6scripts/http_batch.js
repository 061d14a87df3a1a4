import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 2 };
export default function () {
  const rs = http.batch([['GET', `${__ENV.BASE}/hello`], `${__ENV.BASE}/hello`, { method: 'GET', url: `${__ENV.BASE}/missing` }]);
  check(rs, { 'batch answers in order': (r) => r.length === 3 && r[0].status === 200 && r[2].status === 404 });
}
