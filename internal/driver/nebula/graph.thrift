// stampede's own minimal IDL of NebulaGraph 3.x's graph service: only the
// structures and calls stampede uses, with the field ids and wire types of
// the published interface (src/interface/graph.thrift and common.thrift in
// the NebulaGraph repository). Fields stampede does not declare (plan
// descriptions, geography values, ...) are skipped by the generated
// readers, as Thrift skips unknown fields.
//
// Regenerate with `go generate ./internal/driver/nebula` (Debian's
// thrift-compiler 0.17; the generated code matches
// github.com/apache/thrift v0.17.0 in go.mod).

namespace go graphsvc

enum NullType {
    __NULL__ = 0,
    NaN = 1,
    BAD_DATA = 2,
    BAD_TYPE = 3,
    ERR_OVERFLOW = 4,
    UNKNOWN_PROP = 5,
    DIV_BY_ZERO = 6,
    OUT_OF_RANGE = 7,
}

struct Date {
    1: i16 year;
    2: i8 month;
    3: i8 day;
}

struct Time {
    1: i8 hour;
    2: i8 minute;
    3: i8 sec;
    4: i32 microsec;
}

struct DateTime {
    1: i16 year;
    2: i8 month;
    3: i8 day;
    4: i8 hour;
    5: i8 minute;
    6: i8 sec;
    7: i32 microsec;
}

union Value {
    1: NullType nVal;
    2: bool bVal;
    3: i64 iVal;
    4: double fVal;
    5: binary sVal;
    6: Date dVal;
    7: Time tVal;
    8: DateTime dtVal;
    9: Vertex vVal;
    10: Edge eVal;
    11: Path pVal;
    12: NList lVal;
    13: NMap mVal;
    14: NSet uVal;
    15: DataSet gVal;
    17: Duration duVal;
}

struct NList {
    1: list<Value> values;
}

struct NMap {
    1: map<binary, Value> kvs;
}

struct NSet {
    1: set<Value> values;
}

struct Row {
    1: list<Value> values;
}

struct DataSet {
    1: list<binary> column_names;
    2: list<Row> rows;
}

struct Tag {
    1: binary name,
    2: map<binary, Value> props,
}

struct Vertex {
    1: Value vid,
    2: list<Tag> tags,
}

struct Edge {
    1: Value src,
    2: Value dst,
    3: i32 type,
    4: binary name,
    5: i64 ranking,
    6: map<binary, Value> props,
}

struct Step {
    1: Vertex dst,
    2: i32 type,
    3: binary name,
    4: i64 ranking,
    5: map<binary, Value> props,
}

struct Path {
    1: Vertex src,
    2: list<Step> steps;
}

struct Duration {
    1: i64 seconds;
    2: i32 microseconds;
    3: i32 months;
}

// ErrorCode: the codes stampede names in its error breakdown. A code the
// server sends that is not listed here is shown by number.
enum ErrorCode {
    SUCCEEDED = 0,
    E_DISCONNECTED = -1,
    E_FAIL_TO_CONNECT = -2,
    E_RPC_FAILURE = -3,
    E_LEADER_CHANGED = -4,
    E_SPACE_NOT_FOUND = -5,
    E_TAG_NOT_FOUND = -6,
    E_EDGE_NOT_FOUND = -7,
    E_INDEX_NOT_FOUND = -8,
    E_EDGE_PROP_NOT_FOUND = -9,
    E_TAG_PROP_NOT_FOUND = -10,
    E_ROLE_NOT_FOUND = -11,
    E_CONFIG_NOT_FOUND = -12,
    E_MACHINE_NOT_FOUND = -13,
    E_ZONE_NOT_FOUND = -14,
    E_LISTENER_NOT_FOUND = -15,
    E_PART_NOT_FOUND = -16,
    E_KEY_NOT_FOUND = -17,
    E_USER_NOT_FOUND = -18,
    E_STATS_NOT_FOUND = -19,
    E_SERVICE_NOT_FOUND = -20,
    E_PARTIAL_RESULT = -27,
    E_INVALID_PASSWORD = -29,
    E_BAD_USERNAME_PASSWORD = -1001,
    E_SESSION_INVALID = -1002,
    E_SESSION_TIMEOUT = -1003,
    E_SYNTAX_ERROR = -1004,
    E_EXECUTION_ERROR = -1005,
    E_STATEMENT_EMPTY = -1006,
    E_BAD_PERMISSION = -1008,
    E_SEMANTIC_ERROR = -1009,
    E_TOO_MANY_CONNECTIONS = -1010,
    E_PARTIAL_SUCCEEDED = -1011,
    E_NO_HOSTS = -2001,
    E_EXISTED = -2002,
    E_INVALID_HOST = -2003,
    E_UNSUPPORTED = -2004,
    E_CONFLICT = -2008,
    E_INVALID_PARM = -2009,
    E_ZONE_NOT_ENOUGH = -2011,
    E_SCHEMA_NAME_EXISTS = -2014,
    E_STORE_FAILURE = -2021,
    E_NO_VALID_HOST = -2026,
    E_INVALID_PARTITION_NUM = -2031,
    E_INVALID_REPLICA_FACTOR = -2032,
    E_JOB_NOT_FINISHED = -2048,
    E_SESSION_NOT_FOUND = -2069,
    E_QUERY_NOT_FOUND = -2073,
    E_GRAPH_MEMORY_EXCEEDED = -2600,
    E_CONSENSUS_ERROR = -3001,
    E_KEY_HAS_EXISTS = -3002,
    E_DATA_TYPE_MISMATCH = -3003,
    E_INVALID_FIELD_VALUE = -3004,
    E_INVALID_OPERATION = -3005,
    E_NOT_NULLABLE = -3006,
    E_FIELD_UNSET = -3007,
    E_OUT_OF_RANGE = -3008,
    E_DATA_CONFLICT_ERROR = -3010,
    E_WRITE_STALLED = -3011,
    E_IMPROPER_DATA_TYPE = -3021,
    E_INVALID_SPACEVIDLEN = -3022,
    E_INVALID_FILTER = -3031,
    E_INVALID_UPDATER = -3032,
    E_INVALID_STORE = -3033,
    E_INVALID_PEER = -3034,
    E_RETRY_EXHAUSTED = -3035,
    E_TRANSFER_LEADER_FAILED = -3036,
    E_INVALID_VID = -3038,
    E_LOAD_META_FAILED = -3040,
    E_FILTER_OUT = -3043,
    E_INVALID_DATA = -3044,
    E_MUTATE_EDGE_CONFLICT = -3045,
    E_MUTATE_TAG_CONFLICT = -3046,
    E_OUTDATED_LOCK = -3047,
    E_PLAN_IS_KILLED = -3060,
    E_CLIENT_SERVER_INCOMPATIBLE = -3061,
    E_NO_TERM = -3070,
    E_OUTDATED_TERM = -3071,
    E_WRITE_WRITE_CONFLICT = -3073,
    E_RAFT_UNKNOWN_PART = -3500,
    E_RAFT_LOG_GAP = -3501,
    E_RAFT_LOG_STALE = -3502,
    E_RAFT_TERM_OUT_OF_DATE = -3503,
    E_RAFT_WAITING_SNAPSHOT = -3511,
    E_RAFT_NOT_READY = -3514,
    E_RAFT_STOPPED = -3515,
    E_RAFT_BAD_ROLE = -3516,
    E_RAFT_WAL_FAIL = -3521,
    E_RAFT_HOST_STOPPED = -3522,
    E_RAFT_TOO_MANY_REQUESTS = -3523,
    E_RAFT_BUFFER_OVERFLOW = -3529,
    E_LEADER_LEASE_FAILED = -3531,
    E_STORAGE_MEMORY_EXCEEDED = -3600,
    E_UNKNOWN = -8000,
}

struct ExecutionResponse {
    1: required ErrorCode error_code;
    2: required i64 latency_in_us;
    3: optional DataSet data;
    4: optional binary space_name;
    5: optional binary error_msg;
    7: optional binary comment;
}

struct AuthResponse {
    1: required ErrorCode error_code;
    2: optional binary error_msg;
    3: optional i64 session_id;
    4: optional i32 time_zone_offset_seconds;
    5: optional binary time_zone_name;
}

struct VerifyClientVersionResp {
    1: required ErrorCode error_code;
    2: optional binary error_msg;
}

struct VerifyClientVersionReq {
    1: required binary version = "3.0.0";
}

service GraphService {
    AuthResponse authenticate(1: binary username, 2: binary password)
    oneway void signout(1: i64 sessionId)
    ExecutionResponse execute(1: i64 sessionId, 2: binary stmt)
    ExecutionResponse executeWithParameter(1: i64 sessionId, 2: binary stmt, 3: map<binary, Value> parameterMap)
    VerifyClientVersionResp verifyClientVersion(1: VerifyClientVersionReq req)
}
