// http.batch sends its requests in parallel, at most batchPerHost (6 by
// default, as in k6) to one host: 8 requests to a target that answers
// after 200 ms take two rounds, not eight.
import http from 'k6/http';
import { check } from 'k6';
import { Trend } from 'k6/metrics';

const took = new Trend('batch_took', true);

export const options = Object.assign({ iterations: 1 },
  __ENV.PER_HOST ? { batchPerHost: Number(__ENV.PER_HOST) } : {},
  __ENV.BATCH ? { batch: Number(__ENV.BATCH) } : {});

export default function () {
  const reqs = [];
  for (let i = 0; i < 8; i++) reqs.push(['GET', `${__ENV.BASE}/sleep?i=${i}`, null, { tags: { name: 'sleep' } }]);
  const t = Date.now();
  const rs = http.batch(reqs);
  took.add(Date.now() - t);
  check(rs, { 'all answered in order': (rs) => rs.length === 8 && rs.every((r, i) => r.status === 200 && r.body === String(i)) });
}
