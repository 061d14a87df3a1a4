import { group, check, sleep } from 'k6';
export const options = { iterations: 3 };
export default function () {
  group('outer', function () {
    group('inner', function () { check(true, { 'in a group': (x) => x }); });
    sleep(0.01);
  });
}
