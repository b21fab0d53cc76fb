#!/bin/sh
# cluster.sh start|stop: the local scale-out of docs/scaling.md, run by make cluster and
# make cluster-stop. start runs, each in the background with its log and pid file in $DIR:
#   redis-server  127.0.0.1:$REDIS_PORT (6390)  keys and limits (append-only file in $DIR/redis)
#   fixture       $FIXTURE                      the demo corpus's upstreams (gigsctl fixture)
#   publisher     127.0.0.1:$BASE (8090)        gigsd -sources (the demo) -publish $DIR/bucket
#   follower1     127.0.0.1:$BASE+1             gigsd -follow $DIR/bucket -redis (admin $BASE+101)
#   follower2     127.0.0.1:$BASE+2             gigsd -follow $DIR/bucket -redis (admin $BASE+102)
#   nginx         :$LISTEN (8080)               in front of the two followers
# and returns once both followers serve the publisher's snapshot through nginx. The
# binaries are taken from $BIN (bin).
set -eu
DIR=${DIR:-var/cluster}
DEMO=${DEMO:-var/demo}
FIXTURE=${FIXTURE:-127.0.0.1:8079}
LISTEN=${LISTEN:-8080}
BASE=${BASE:-8090}
REDIS_PORT=${REDIS_PORT:-6390}
BIN=${BIN:-bin}
REDIS=redis://127.0.0.1:$REDIS_PORT
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
here=$(dirname "$0")

running() { [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null; }

# spawn NAME CMD...: runs CMD in the background, its output in $DIR/NAME.log
spawn() {
	name=$1; shift
	if running "$name"; then echo "cluster: $name already runs (pid $(cat "$DIR/$name.pid"))"; return; fi
	nohup "$@" >"$DIR/$name.log" 2>&1 &
	echo $! >"$DIR/$name.pid"
}

# wait_for WHAT CMD...: polls CMD for 60 seconds
wait_for() {
	what=$1; shift
	i=0
	until "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -ge 600 ]; then echo "cluster: $what did not come up; see $DIR/*.log" >&2; exit 1; fi
		sleep 0.1
	done
}

start() {
	mkdir -p "$DIR/redis" "$DIR/bucket" "$DIR/nginx-tmp"
	DIR=$(cd "$DIR" && pwd)
	if ! running redis; then
		redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DIR/redis" --appendonly yes --save "" \
			--daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log"
	fi
	wait_for redis redis-cli -p "$REDIS_PORT" ping
	"$BIN/gigsctl" keys init -redis "$REDIS" >/dev/null
	spawn publisher "$BIN/gigsctl" fixture -dir "$DEMO" -listen "$FIXTURE" -- \
		"$BIN/gigsd" -sources "$DEMO/sources.json" -publish "$DIR/bucket" -redis "$REDIS" \
		-addr "127.0.0.1:$BASE" -admin-addr "127.0.0.1:$((BASE + 100))" -data-dir "$DIR/publisher"
	for i in 1 2; do
		spawn follower$i "$BIN/gigsd" -follow "$DIR/bucket" -follow-every 2s -redis "$REDIS" -trusted-proxies 127.0.0.1 \
			-addr "127.0.0.1:$((BASE + i))" -admin-addr "127.0.0.1:$((BASE + 100 + i))" -data-dir "$DIR/follower$i"
	done
	sed -e "s#@DIR@#$DIR#g" -e "s#@LISTEN@#$LISTEN#g" -e "s#@FOLLOWER1@#127.0.0.1:$((BASE + 1))#g" \
		-e "s#@FOLLOWER2@#127.0.0.1:$((BASE + 2))#g" "$here/nginx.conf.in" >"$DIR/nginx.conf"
	"$NGINX" -t -q -c "$DIR/nginx.conf" -p "$DIR"
	if running nginx; then "$NGINX" -c "$DIR/nginx.conf" -p "$DIR" -s reload; else "$NGINX" -c "$DIR/nginx.conf" -p "$DIR"; fi
	wait_for "the publisher's first snapshot" test -f "$DIR/bucket/manifest.json"
	for i in 1 2; do wait_for follower$i curl -fsS -o /dev/null "http://127.0.0.1:$((BASE + 100 + i))/readyz"; done
	wait_for nginx curl -fsS -o /dev/null "http://127.0.0.1:$LISTEN/v1/meta"
	cat <<-MSG
	cluster: serving the demo on http://localhost:$LISTEN (nginx) from two followers of one publisher.
	  redis-server 127.0.0.1:$REDIS_PORT, publisher :$BASE (admin :$((BASE + 100))), followers :$((BASE + 1)) :$((BASE + 2)) (admin :$((BASE + 101)) :$((BASE + 102)))
	  bucket $DIR/bucket, logs $DIR/*.log; a key: $BIN/gigsctl keys create -redis $REDIS -owner you@example.org -use test
	  stop with: make cluster-stop
	MSG
}

stop() {
	if running nginx; then kill -QUIT "$(cat "$DIR/nginx.pid")"; echo "cluster: stopped nginx"; fi
	for name in follower1 follower2 publisher redis; do
		if running $name; then kill "$(cat "$DIR/$name.pid")"; echo "cluster: stopped $name"; fi
		rm -f "$DIR/$name.pid"
	done
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
