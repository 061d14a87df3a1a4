import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1 };
export default function () {
  const base = __ENV.BASE;
  const p = http.post(`${base}/echo`, JSON.stringify({ a: 1 }), { headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' }, tags: { name: 'echo' } });
  check(p, { 'post echoes json': (r) => r.json().body.a === 1 && r.json('method') === 'POST', 'post header seen': (r) => r.json('headers.X-Test') === 'yes' });
  check(http.put(`${base}/echo`, 'x'), { 'put': (r) => r.json('method') === 'PUT' });
  check(http.patch(`${base}/echo`, 'x'), { 'patch': (r) => r.json('method') === 'PATCH' });
  check(http.del(`${base}/echo`), { 'del': (r) => r.json('method') === 'DELETE' });
  check(http.head(`${base}/hello`), { 'head': (r) => r.status === 200 && r.body === '' });
  check(http.options(`${base}/echo`), { 'options': (r) => r.json('method') === 'OPTIONS' });
  check(http.request('GET', `${base}/hello`, null, { timeout: '5s' }), { 'request': (r) => r.status === 200 && r.timings.duration >= 0 && r.headers['Content-Type'] !== undefined });
  check(http.post(`${base}/echo`, { k: 'v w' }), { 'form body': (r) => r.json('form') === 'k=v+w' });
  check(http.get(`${base}/bin`, { responseType: 'binary' }), { 'binary body': (r) => r.body.byteLength === 4 });
}
