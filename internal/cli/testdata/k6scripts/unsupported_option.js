export const options = { vus: 1, hosts: { 'a.b': '1.2.3.4' } };
export default function () {}
