// A NebulaGraph-Bench-style scenario script (go.Go1Step), in xk6-nebula's
// option form: one pool for the test, one session per VU, parameters from
// a '|'-separated CSV with a header, every request in an output CSV.
import nebulaPool from 'k6/x/nebulagraph';
import { check } from 'k6';
import { Trend } from 'k6/metrics';

var latencyTrend = new Trend('latency', true);
var responseTrend = new Trend('responseTime', true);
var rowSize = new Trend('rowSize');

var graph_option = {
  address: __ENV.NEBULA_ADDRESS,
  space: 'sf',
  csv_path: __ENV.PERSON_CSV,
  csv_delimiter: '|',
  csv_with_header: true,
  output: __ENV.OUTPUT_CSV,
};

nebulaPool.setOption(graph_option);
var pool = nebulaPool.init();
var session = pool.getSession();

String.prototype.format = function () {
  var formatted = this;
  var data = arguments[0];
  formatted = formatted.replace(/\{(\d+)\}/g, function (match, key) {
    return data[key];
  });
  return formatted;
};

export default function (data) {
  let d = session.getData();
  let ngql = 'GO 1 STEP FROM {0} OVER KNOWS YIELD dst(edge)'.format(d);
  let response = session.execute(ngql);
  check(response, {
    IsSucceed: (r) => r.isSucceed() === true,
  });
  latencyTrend.add(response.getLatency() / 1000);
  responseTrend.add(response.getResponseTime() / 1000);
  rowSize.add(response.getRowSize());
}

export function teardown() {
  pool.close();
}
