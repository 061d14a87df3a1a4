import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 4, thresholds: { http_req_failed: ['rate==0'] } };
http.setResponseCallback(http.expectedStatuses(200, { min: 404, max: 404 }));
export default function () {
  check(http.get(`${__ENV.BASE}/missing`), { 'not found': (r) => r.status === 404 && r.error_code === 1404 });
}
