package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The sources file is the operator's: AddVenue and RemoveSource edit its text in place,
// so that every other byte (order, indentation, line breaks, the other entries as written)
// stays as it was. Neither checks the result: pass it to ParseConfig before writing it.

// AddVenue returns data, a sources configuration file, with v added as the last of its
// venues, laid out as the venue before it is (on its own lines, indented alike, or on one
// line); a file without "venues" gets the list.
func AddVenue(data []byte, v VenueConfig) ([]byte, error) {
	entry, err := entryJSON(v)
	if err != nil {
		return nil, err
	}
	top, err := topLevel(data)
	if err != nil {
		return nil, err
	}
	list, ok := top["venues"]
	if !ok {
		// Before the object's closing brace: a new member.
		end := bytes.LastIndexByte(data, '}')
		last := bytes.LastIndexFunc(data[:end], func(r rune) bool { return !isJSONSpace(r) })
		sep := ","
		if data[last] == '{' {
			sep = ""
		}
		ins := sep + "\n  \"venues\": [\n    " + indentJSON(entry, "    ") + "\n  ]"
		return splice(data, last+1, last+1, ins), nil
	}
	elems, err := elements(data, list)
	if err != nil {
		return nil, fmt.Errorf("venues: %w", err)
	}
	if len(elems) == 0 {
		ind := lineIndent(data, list.start)
		ins := "\n" + ind + "  " + indentJSON(entry, ind+"  ") + "\n" + ind
		return splice(data, list.start+1, list.end-1, ins), nil
	}
	prev := elems[len(elems)-1]
	between := data[list.start+1 : elems[0].start]
	if len(elems) > 1 {
		between = data[elems[len(elems)-2].end:prev.start]
	}
	if bytes.ContainsRune(between, '\n') {
		ind := lineIndent(data, prev.start)
		if bytes.ContainsRune(data[prev.start:prev.end], '\n') {
			entry = indentJSON(entry, ind)
		} else {
			entry = compactJSON(entry)
		}
		return splice(data, prev.end, prev.end, ",\n"+ind+entry), nil
	}
	return splice(data, prev.end, prev.end, ", "+compactJSON(entry)), nil
}

// RemoveSource returns data with the venue or platform named name taken out, with the
// separator and the line it stood on.
func RemoveSource(data []byte, name string) ([]byte, error) {
	top, err := topLevel(data)
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"venues", "platforms"} {
		list, ok := top[key]
		if !ok {
			continue
		}
		elems, err := elements(data, list)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		for i, e := range elems {
			var named struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data[e.start:e.end], &named) != nil || named.Name != name {
				continue
			}
			switch {
			case i > 0:
				return splice(data, elems[i-1].end, e.end, ""), nil
			case len(elems) > 1:
				return splice(data, e.start, elems[1].start, ""), nil
			default:
				return splice(data, list.start+1, list.end-1, ""), nil
			}
		}
	}
	return nil, fmt.Errorf("no source named %q", name)
}

// span is a JSON value's bytes in a document: data[start:end].
type span struct{ start, end int }

// topLevel returns the spans of the top-level object's members' values, by key.
func topLevel(data []byte) (map[string]span, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("the sources file is not a JSON object")
	}
	out := map[string]span{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		k, _ := key.(string)
		out[k] = span{end - len(raw), end}
	}
	return out, nil
}

// elements returns the spans of the values of the array at list.
func elements(data []byte, list span) ([]span, error) {
	arr := data[list.start:list.end]
	dec := json.NewDecoder(bytes.NewReader(arr))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, errors.New("not a list")
	}
	var out []span
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := list.start + int(dec.InputOffset())
		out = append(out, span{end - len(raw), end})
	}
	return out, nil
}

func entryJSON(v VenueConfig) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// indentJSON indents every line of s but the first by ind.
func indentJSON(s, ind string) string { return strings.ReplaceAll(s, "\n", "\n"+ind) }

// compactJSON is s on one line, with a space after each colon and comma as people write it.
func compactJSON(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	var out strings.Builder
	in, esc := false, false
	for _, c := range b.Bytes() {
		out.WriteByte(c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			out.WriteByte(' ')
		}
	}
	return out.String()
}

// lineIndent is the white space that starts the line holding data[off].
func lineIndent(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < off && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

func isJSONSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func splice(data []byte, from, to int, ins string) []byte {
	out := make([]byte, 0, len(data)+len(ins))
	out = append(out, data[:from]...)
	out = append(out, ins...)
	return append(out, data[to:]...)
}
