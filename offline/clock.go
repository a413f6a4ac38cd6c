package offline

import (
	"strconv"
	"time"

	"github.com/nadine-robot/nadine"
)

// formatTime writes the time of day the way each language says it:
// "3:05 PM", "15 h 05", "15:05 Uhr", "15点05分".
func formatTime(t time.Time, lang nadine.Language) string {
	h, m := t.Hour(), t.Minute()
	mm := twoDigits(m)
	switch lang {
	case nadine.French:
		return strconv.Itoa(h) + " h " + mm
	case nadine.German:
		return strconv.Itoa(h) + ":" + mm + " Uhr"
	case nadine.Chinese:
		return strconv.Itoa(h) + "点" + mm + "分"
	}
	suffix := "AM"
	if h >= 12 {
		suffix = "PM"
	}
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	return strconv.Itoa(h12) + ":" + mm + " " + suffix
}

// formatDate writes the date with its weekday: "Monday, March 3, 2025",
// "lundi 3 mars 2025", "Montag, der dritte März 2025", "2025年3月3日星期一".
func formatDate(t time.Time, lang nadine.Language, cal wordTable, ordinals *[31]string) string {
	y, mo, d := t.Date()
	wd := cal.weekdays[t.Weekday()]
	year := strconv.Itoa(y)
	switch lang {
	case nadine.French:
		day := strconv.Itoa(d)
		if d == 1 {
			day = "1er"
		}
		return wd + " " + day + " " + cal.months[mo-1] + " " + year
	case nadine.German:
		return wd + ", der " + ordinals[d-1] + " " + cal.months[mo-1] + " " + year
	case nadine.Chinese:
		return year + "年" + strconv.Itoa(int(mo)) + "月" + strconv.Itoa(d) + "日" + wd
	}
	return wd + ", " + cal.months[mo-1] + " " + strconv.Itoa(d) + ", " + year
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
