package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nadine-robot/nadine"
)

// streamChunk is one server-sent event of a streamed answer.
type streamChunk struct {
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	Error   *wireError   `json:"error"`
}

// toolAcc accumulates one streamed tool call.
type toolAcc struct {
	index int
	id    string
	name  string
	args  strings.Builder
}

// readStream reads server-sent events until [DONE]. Once delivered is true
// the call must not be made again.
func (c *Client) readStream(body io.Reader, names map[string]string, onDelta func(string)) (resp nadine.ChatResponse, delivered bool, err error) {
	br := bufio.NewReaderSize(body, 4096)
	var (
		content  strings.Builder
		tools    []*toolAcc
		data     []byte // the current event's data lines
		finished bool   // a finish reason arrived
		done     bool   // [DONE] arrived
		events   bool   // a data line arrived
		head     []byte // the start of the body, for the error on a body that is no stream
	)
	dispatch := func() error {
		payload := bytes.TrimSpace(data)
		data = data[:0]
		if len(payload) == 0 {
			return nil
		}
		if string(payload) == "[DONE]" {
			done = true
			return nil
		}
		var ch streamChunk
		if err := json.Unmarshal(payload, &ch); err != nil {
			return &badOutputError{c.scrub(fmt.Sprintf("undecodable stream event: %v; it starts %q", err, snippet(payload, 80)))}
		}
		if ch.Error != nil && ch.Error.Message != "" {
			return &serverError{nadine.Shorten(c.scrub(ch.Error.Message), 300)}
		}
		if ch.Model != "" {
			resp.Model = ch.Model
		}
		if ch.Usage != nil {
			resp.PromptTokens, resp.CompletionTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if d := string(choice.Delta.Content); d != "" {
				content.WriteString(d)
				delivered = true
				onDelta(d)
			}
			for _, tc := range choice.Delta.ToolCalls {
				tools = addToolDelta(tools, tc)
			}
			if choice.FinishReason != nil && *choice.FinishReason != "" {
				resp.FinishReason = *choice.FinishReason
				finished = true
			}
		}
		return nil
	}

	for !done {
		line, rerr := readLine(br)
		if len(head) < 80 {
			head = append(head, line[:min(len(line), 80)]...)
		}
		if len(line) > 0 || rerr == nil {
			switch {
			case len(line) == 0:
				if err := dispatch(); err != nil {
					return resp, delivered, err
				}
			case line[0] == ':': // comment
			case bytes.HasPrefix(line, []byte("data:")):
				events = true
				if len(data) > 0 {
					data = append(data, '\n')
				}
				data = append(data, bytes.TrimPrefix(line[5:], []byte(" "))...)
			case bytes.HasPrefix(line, []byte("error:")): // llama.cpp
				return resp, delivered, &serverError{c.scrub(snippet(line[6:], 300))}
			}
		}
		if rerr != nil {
			if err := dispatch(); err != nil {
				return resp, delivered, err
			}
			if done || (rerr == io.EOF && finished) {
				break
			}
			if rerr == io.EOF && !events && len(bytes.TrimSpace(head)) > 0 {
				return resp, delivered, &badOutputError{c.scrub(fmt.Sprintf("undecodable answer: not an event stream; it starts %q", snippet(head, 80)))}
			}
			if rerr == io.EOF {
				rerr = io.ErrUnexpectedEOF
			}
			return resp, delivered, &connError{fmt.Errorf("stream broke off: %w", rerr)}
		}
	}
	resp.Content = content.String()
	if len(tools) > 0 {
		resp.ToolCalls = make([]nadine.ToolCall, len(tools))
		for i, t := range tools {
			resp.ToolCalls[i] = nadine.ToolCall{ID: t.id, Name: callerName(names, t.name), Arguments: t.args.String()}
		}
	}
	if resp.Content == "" && len(resp.ToolCalls) == 0 && !finished {
		return resp, delivered, &badOutputError{"the stream ended without content, tool calls or a finish reason"}
	}
	return resp, delivered, nil
}

// addToolDelta merges a streamed tool-call fragment by index; a new id
// starts a new call, since some servers send whole calls all at index 0.
func addToolDelta(tools []*toolAcc, d wireToolCall) []*toolAcc {
	var t *toolAcc
	switch {
	case d.Index != nil:
		for i := len(tools) - 1; i >= 0; i-- {
			if tools[i].index == *d.Index {
				t = tools[i]
				break
			}
		}
		if t != nil && d.ID != "" && t.id != "" && d.ID != t.id {
			t = nil
		}
		if t == nil {
			t = &toolAcc{index: *d.Index}
			tools = append(tools, t)
		}
	case d.ID != "" || len(tools) == 0:
		t = &toolAcc{index: len(tools)}
		tools = append(tools, t)
	default:
		t = tools[len(tools)-1]
	}
	if d.ID != "" {
		t.id = d.ID
	}
	if d.Function.Name != "" {
		t.name = d.Function.Name
	}
	t.args.WriteString(d.Function.Arguments)
	return tools
}

// readLine returns the next line without its line ending (\n or \r\n),
// however long.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = br.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}
