export default function () {
  let x = ;
}
