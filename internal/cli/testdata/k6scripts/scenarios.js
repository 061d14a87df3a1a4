import { check } from 'k6';
import exec from 'k6/execution';
export const options = {
  scenarios: {
    readers: { executor: 'per-vu-iterations', vus: 2, iterations: 3, exec: 'read', env: { ROLE: 'reader' }, tags: { kind: 'r' } },
    writers: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, exec: 'write', startTime: '200ms' },
    shared: { executor: 'shared-iterations', vus: 2, iterations: 5 },
  },
  thresholds: { 'iterations{scenario:readers}': ['count==6'], 'iterations{scenario:shared}': ['count==5'] },
};
export function read() { check(exec.scenario.name, { 'reader env and name': (n) => n === 'readers' && __ENV.ROLE === 'reader' }); }
export function write() { check(exec.scenario.name, { 'writer name': (n) => n === 'writers' && __ENV.ROLE === undefined }); }
export default function () { check(exec.vu.idInTest, { 'vu id positive': (id) => id > 0 }); }
