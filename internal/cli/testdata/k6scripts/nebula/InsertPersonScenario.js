// A NebulaGraph-Bench-style insert scenario: batchSize persons per
// INSERT VERTEX statement, values from the person CSV. NebulaGraph-Bench
// users edit the batch size in place:
//   sed -i 's/batchSize = 100/batchSize = 300/' InsertPersonScenario.js
import nebulaPool from 'k6/x/nebulagraph';
import { check } from 'k6';
import { Trend } from 'k6/metrics';

var latencyTrend = new Trend('latency', true);
var responseTrend = new Trend('responseTime', true);
var rowSize = new Trend('rowSize');

nebulaPool.setOption({
  address: __ENV.NEBULA_ADDRESS,
  space: 'sf',
  csv_path: __ENV.PERSON_CSV,
  csv_delimiter: '|',
  csv_with_header: true,
  output: __ENV.OUTPUT_CSV,
});
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
  let ngql = 'INSERT VERTEX Person(firstName, lastName, gender, birthday, creationDate, locationIP, browserUsed) VALUES ';
  let batches = [];
  let batchSize = 100;
  for (let i = 0; i < batchSize; i++) {
    let d = session.getData();
    let value = '{0}:("{1}","{2}","{3}","{4}",datetime("{5}"),"{6}","{7}")'.format(d);
    batches.push(value);
  }
  ngql = ngql + ' ' + batches.join(',');
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
