// xk6-nebula's first API: init(address, size), getSession(user, password),
// USE in the init context, configCSV and configOutput in setup().
import nebulaPool from 'k6/x/nebulagraph';
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';

var lantencyTrend = new Trend('latency');
var responseTrend = new Trend('responseTime');
var pool = nebulaPool.initWithSize(__ENV.NEBULA_ADDRESS, 400, 4000);
var session = pool.getSession('root', 'nebula');
session.execute('USE sf');

export function setup() {
  pool.configCSV(__ENV.PERSON_CSV, '|', true);
  pool.configOutput(__ENV.OUTPUT_CSV);
  sleep(0.1);
}

export default function (data) {
  let d = session.getData();
  let response = session.execute('GO 2 STEPS FROM ' + d[0] + ' OVER KNOWS YIELD dst(edge)');
  check(response, { IsSucceed: (r) => r.isSucceed() === true, 'no error message': (r) => r.getErrorMsg() === '' });
  lantencyTrend.add(response.getLatency());
  responseTrend.add(response.getResponseTime());
}

export function teardown() {
  pool.close();
}
