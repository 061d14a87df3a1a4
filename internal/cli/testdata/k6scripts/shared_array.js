import { SharedArray } from 'k6/data';
import { check } from 'k6';
const users = new SharedArray('users', function () { return JSON.parse(open('./users.json')); });
export const options = { vus: 2, iterations: 4 };
export default function () {
  check(users, { 'shared array readable': (u) => u.length === 2 && u[1].name === 'bob' });
  let threw = false;
  try { users[0] = 1; } catch (e) { threw = true; }
  check(threw, { 'shared array read-only': (t) => t });
}
