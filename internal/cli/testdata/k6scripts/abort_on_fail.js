import { check, sleep } from 'k6';
export const options = { vus: 1, duration: '60s', thresholds: { checks: [{ threshold: 'rate>0.9', abortOnFail: true, delayAbortEval: '1s' }] } };
export default function () { check(false, { 'always fails': (x) => x }); sleep(0.05); }
