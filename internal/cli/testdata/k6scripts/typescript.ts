import { check } from 'k6';
interface Point { x: number }
export const options = { iterations: 2 };
export default function (): void {
  const p: Point = { x: 1 };
  check(p, { 'typescript runs': (q: Point) => q.x === 1 });
}
