import exec from 'k6/execution';
export const options = { vus: 1, duration: '30s' };
export default function () { if (__ITER === 5) { exec.test.abort('enough'); } }
