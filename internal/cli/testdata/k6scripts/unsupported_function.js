import http from 'k6/http';
export default async function () { await http.asyncRequest('GET', 'http://127.0.0.1/'); }
