import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
const c = new Counter('items');
const g = new Gauge('queue_len');
const r = new Rate('good');
const t = new Trend('wait_ms', true);
const n = new Trend('sizes');
export const options = { vus: 1, iterations: 10, thresholds: {
  items: ['count==20'], good: ['rate>=0.5'], 'wait_ms{kind:a}': ['max<11', 'min>9'], sizes: ['max==9'], queue_len: ['value==9'] } };
export default function () {
  c.add(2);
  g.add(__ITER);
  r.add(__ITER % 2 === 0);
  t.add(__ITER % 2 === 0 ? 10 : 500, { kind: __ITER % 2 === 0 ? 'a' : 'b' });
  n.add(__ITER);
}
