module github.com/mochi-mqtt/server/v2

go 1.21

require (
	github.com/gorilla/websocket v1.5.0
	github.com/jinzhu/copier v0.3.5
	github.com/rs/xid v1.4.0
	gopkg.in/yaml.v3 v3.0.1
)
