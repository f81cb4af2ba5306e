/** Files several corpus scripts work on: CSV, logs, JSON, a poem, config files. */
import { sh } from "../sh.ts";

export const salesCsv = sh`
date,region,product,units,price
2024-01-03,north,widget,12,2.50
2024-01-04,south,gadget,3,10.00
2024-01-04,north,gadget,5,10.00
2024-01-05,east,widget,7,2.50
2024-01-06,south,widget,20,2.50
2024-01-07,west,gizmo,1,99.99
2024-01-07,east,gadget,4,10.00
2024-01-08,north,gizmo,2,99.99
`;

export const appLog = sh`
2024-03-01 10:00:01 INFO server started port=8080
2024-03-01 10:00:05 INFO request GET /api/users 200 12ms user=ann
2024-03-01 10:00:07 WARN slow query table=orders 850ms
2024-03-01 10:01:00 ERROR request POST /api/orders 500 33ms user=bob
2024-03-01 10:01:02 INFO request GET /api/orders 200 41ms user=ann
2024-03-01 10:02:10 ERROR database timeout after 5000ms
2024-03-01 10:02:11 WARN retrying connection attempt=2
2024-03-01 10:02:15 INFO request GET /api/users 200 9ms user=cid
2024-03-01 10:03:00 INFO request DELETE /api/users/7 204 15ms user=bob
2024-03-01 10:04:30 ERROR request GET /api/reports 503 120ms user=ann
2024-03-01 10:05:00 INFO server stopping
`;

export const workerLog = sh`
2024-03-01 10:00:02 INFO worker ready queue=emails
2024-03-01 10:01:30 ERROR job 17 failed: smtp refused
2024-03-01 10:01:31 INFO job 18 done
2024-03-01 10:03:45 ERROR job 21 failed: timeout
`;

export const accessLog = sh`
10.0.0.1 - - [01/Mar/2024:10:00:01 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [01/Mar/2024:10:00:02 +0000] "GET /about.html HTTP/1.1" 200 1024
10.0.0.1 - - [01/Mar/2024:10:00:03 +0000] "POST /api/login HTTP/1.1" 401 64
10.0.0.3 - - [01/Mar/2024:10:00:04 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.1 - - [01/Mar/2024:10:00:05 +0000] "POST /api/login HTTP/1.1" 200 128
10.0.0.4 - - [01/Mar/2024:10:00:06 +0000] "GET /missing HTTP/1.1" 404 0
10.0.0.2 - - [01/Mar/2024:10:00:07 +0000] "GET /index.html HTTP/1.1" 304 0
10.0.0.3 - - [01/Mar/2024:10:00:08 +0000] "GET /api/data HTTP/1.1" 500 32
10.0.0.1 - - [01/Mar/2024:10:00:09 +0000] "GET /api/data HTTP/1.1" 200 2048
`;

export const usersJson = sh`
[
  {"id": 1, "name": "Ann", "age": 34, "dept": "eng", "active": true, "roles": ["admin", "dev"], "email": "ann@example.com"},
  {"id": 2, "name": "Bob", "age": 27, "dept": "sales", "active": false, "roles": ["viewer"], "email": "bob@example.com"},
  {"id": 3, "name": "Cid", "age": 41, "dept": "eng", "active": true, "roles": ["dev"], "email": "cid@example.org"},
  {"id": 4, "name": "Dee", "age": 29, "dept": "ops", "active": true, "roles": ["dev", "oncall"], "email": "dee@example.com"},
  {"id": 5, "name": "Eve", "age": 38, "dept": "sales", "active": true, "roles": [], "email": "eve@example.org"}
]
`;

export const ordersJson = sh`
{
  "store": "north",
  "currency": "EUR",
  "orders": [
    {"id": "A-1", "customer": "ann", "items": [{"sku": "W1", "qty": 2, "price": 2.5}, {"sku": "G7", "qty": 1, "price": 10}]},
    {"id": "A-2", "customer": "bob", "items": [{"sku": "W1", "qty": 10, "price": 2.5}]},
    {"id": "A-3", "customer": "ann", "items": [{"sku": "Z9", "qty": 1, "price": 99}, {"sku": "W1", "qty": 4, "price": 2.5}]}
  ]
}
`;

export const poem = sh`
The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs.
A quick fox, a lazy dog, and the end.
`;

export const appConf = sh`
# service configuration
name=billing
port=8080
debug=false
# retries before giving up
retries=3
`;

export const iniFile = sh`
[server]
host = 127.0.0.1
port = 8080

[database]
host = db.internal
port = 5432
user = app
`;
