package keys

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"strings"
)

// Prefix starts every key.
const Prefix = "gigs_"

var (
	enc     = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
	castagn = crc32.MakeTable(crc32.Castagnoli)
	bodyLen = enc.EncodedLen(32 + 4)
)

// KeyLen is the length of a key.
var KeyLen = len(Prefix) + bodyLen

// Errors of Parse, each a distinct reason a caller can report.
var (
	ErrMalformed = errors.New("malformed key")
	ErrChecksum  = errors.New("key checksum mismatch")
)

// NewKey returns a fresh random key.
func NewKey() string {
	var b [36]byte
	_, _ = rand.Read(b[:32]) // never fails on supported platforms
	binary.BigEndian.PutUint32(b[32:], crc32.Checksum(b[:32], castagn))
	return Prefix + enc.EncodeToString(b[:])
}

// Check verifies a key's form and checksum without any look-up.
func Check(key []byte) error {
	if len(key) != KeyLen || !strings.HasPrefix(string(key), Prefix) {
		return ErrMalformed
	}
	var b [36]byte
	if n, err := enc.Decode(b[:], key[len(Prefix):]); err != nil || n != 36 {
		return ErrMalformed
	}
	// The last character carries two unused bits: only the canonical spelling is a key.
	var canon [64]byte
	if enc.Encode(canon[:bodyLen], b[:]); string(canon[:bodyLen]) != string(key[len(Prefix):]) {
		return ErrChecksum
	}
	if binary.BigEndian.Uint32(b[32:]) != crc32.Checksum(b[:32], castagn) {
		return ErrChecksum
	}
	return nil
}

// Hash returns the hex HMAC-SHA256 of key under secret: what the store keeps.
func Hash(secret, key []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(key)
	return hex.EncodeToString(m.Sum(nil))
}
