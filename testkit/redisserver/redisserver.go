// Package redisserver runs a real redis-server for tests: on a free loopback port, without
// persistence, stopped when the test ends. Kill and Restart it to test an outage.
//
// When redis-server is not installed the test is skipped or fails, as tools.Need says.
package redisserver

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/redis"
	"github.com/gigs/gigs/testkit/tools"
)

// Server is a running redis-server.
type Server struct {
	t    testing.TB
	path string
	dir  string
	port int

	mu  sync.Mutex
	cmd *exec.Cmd // nil while killed; protected by mu
}

// Start starts redis-server on a free loopback port, stopped at the end of t.
func Start(t testing.TB) *Server {
	t.Helper()
	path := tools.Need(t, "redis-server")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{t: t, path: path, dir: t.TempDir(), port: port}
	s.Restart()
	t.Cleanup(s.Kill)
	return s
}

// Client returns a client of the server as gigsd makes one (redis.Dial), closed when the
// test ends.
func (s *Server) Client(t testing.TB) *goredis.Client {
	t.Helper()
	c, err := redis.Dial(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Kill stops the server at once, as a crash would; its data is lost.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Restart starts the server again on the same port (an empty one: it keeps no data), and
// returns once it answers PING.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command(s.path, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--daemonize", "no", "--loglevel", "warning", "--logfile", "redis.log")
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redis-server: %v", err)
	}
	s.cmd = cmd
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := ping(s.Addr()); err == nil {
			return
		} else if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on %s does not answer: %v", s.Addr(), err)
		}
	}
}

// ping sends PING and expects PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}
