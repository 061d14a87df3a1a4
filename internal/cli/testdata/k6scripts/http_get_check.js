import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 2, iterations: 10, thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{expected_response:true}': ['p(95)<2000'] } };
export default function () {
  const res = http.get(`${__ENV.BASE}/hello`);
  check(res, { 'status is 200': (r) => r.status === 200, 'body says hello': (r) => r.body === 'hello' });
}
