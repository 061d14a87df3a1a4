export const options = { vus: 50, duration: '5s' };
export default function () {}
