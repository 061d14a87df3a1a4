export const options = { iterations: 2, thresholds: { iteration_duration: ['max<0'] } };
export default function () {}
