export const options = { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '1s', rate: 10 } } };
export default function () {}
