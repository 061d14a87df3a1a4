export const options = { iterations: 2, thresholds: { checks: ['rate>0.99'] } };
export default function () {}
