// test.abort() once the VUs reach __ENV.ABORT_AT: a sweep step that the
// script aborts ends the sweep with k6's exit code 108.
import exec from 'k6/execution';
import { sleep } from 'k6';
export default function () {
  if (exec.instance.vusActive >= Number(__ENV.ABORT_AT)) exec.test.abort('too many VUs');
  sleep(0.01);
}
