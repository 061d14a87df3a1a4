// k6/execution's vu.tags: a tag set on the VU is on its samples.
import http from 'k6/http';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';

const items = new Counter('items');

export const options = {
  iterations: 2,
  thresholds: { 'http_reqs{kind:tagged}': ['count==2'], 'items{kind:tagged}': ['count==4'] },
};

export default function () {
  exec.vu.tags.kind = 'tagged';
  http.get(`${__ENV.BASE}/hello`);
  items.add(2);
}
