export const options = { iterations: 6 };
export default function () {
  if (__ITER % 2 === 0) {
    throw new Error('boom');
  }
}
