package web

import (
	"net/http"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// RobotInfo is one robot of GET /api/robots and GET /api/robots/{robot}.
type RobotInfo struct {
	Name string `json:"name"`
	// Default says the robot is the one the URLs without a robot name act
	// on (the first).
	Default bool                  `json:"default"`
	Engine  string                `json:"engine,omitempty"`
	Offline string                `json:"offline,omitempty"`
	Session dialogue.SessionState `json:"session"`
}

// RobotsResponse is the body of GET /api/robots.
type RobotsResponse struct {
	Robots []RobotInfo `json:"robots"`
}

func (s *Server) robotInfo(rb Robot) RobotInfo {
	return RobotInfo{Name: rb.Name, Default: rb.Name == s.robots[0].Name, Engine: rb.Engine, Offline: rb.Offline,
		Session: rb.Runtime.Session()}
}

// handleRobots lists the robots of the process, the default first, each
// with who is in front of it.
func (s *Server) handleRobots(w http.ResponseWriter, _ *http.Request) {
	out := RobotsResponse{Robots: make([]RobotInfo, 0, len(s.robots))}
	for _, rb := range s.robots {
		out.Robots = append(out.Robots, s.robotInfo(rb))
	}
	writeJSON(w, out)
}

func (s *Server) handleRobot(w http.ResponseWriter, _ *http.Request, rb Robot) {
	writeJSON(w, s.robotInfo(rb))
}

// robotNamed finds the robot of a request's {robot}; otherwise it writes a
// not_found error naming the robots there are.
func (s *Server) robotNamed(w http.ResponseWriter, name string) (Robot, bool) {
	if rb, ok := s.byName[name]; ok {
		return rb, true
	}
	names := make([]string, len(s.robots))
	for i, rb := range s.robots {
		names[i] = rb.Name
	}
	s.writeError(w, nadine.Errorf(nadine.ENOTFOUND, "no robot named %s (robots: %s)", quote(name), strings.Join(names, ", ")))
	return Robot{}, false
}
