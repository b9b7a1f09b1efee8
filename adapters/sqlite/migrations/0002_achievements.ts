/** Achievement templates and their requirements. AUTOINCREMENT: ids are never reused (docs/api.md §2.4). */
export default /* sql */ `
CREATE TABLE achievements (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL REFERENCES clubs(domain),
  name TEXT NOT NULL,
  name_en TEXT,
  type TEXT NOT NULL,
  description TEXT NOT NULL,
  description_en TEXT,
  imprint_description TEXT NOT NULL,
  imprint_description_en TEXT,
  tag TEXT NOT NULL,
  program TEXT,
  co_issuers TEXT NOT NULL,
  prefix TEXT,
  course_begin_at TEXT,
  course_end_at TEXT,
  badge_design_id INTEGER,
  certificate_design_id INTEGER,
  issued_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX achievements_by_club ON achievements(club, id);

CREATE TABLE requirements (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  achievement_id INTEGER NOT NULL REFERENCES achievements(id) ON DELETE CASCADE,
  type TEXT,
  description TEXT,
  url TEXT,
  sort_order INTEGER NOT NULL
) STRICT;

CREATE INDEX requirements_by_achievement ON requirements(achievement_id);
`
