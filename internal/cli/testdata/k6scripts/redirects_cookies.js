import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1 };
export default function () {
  check(http.get(`${__ENV.BASE}/redirect`), { 'followed': (r) => r.status === 200 && r.body === 'hello' });
  check(http.get(`${__ENV.BASE}/redirect`, { redirects: 0 }), { 'not followed': (r) => r.status === 302 });
  http.get(`${__ENV.BASE}/setcookie`);
  check(http.get(`${__ENV.BASE}/echo`), { 'cookie sent back': (r) => r.json('headers.Cookie') === 'session=abc' });
}
