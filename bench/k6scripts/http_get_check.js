import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 50, duration: '5s' };
export default function () {
  const res = http.get(__ENV.URL);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
