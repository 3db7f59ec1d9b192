/// A small catalogue in the Seoul Open Data `culturalEventInfo` format, shipped with the app for the
/// tour, the Example and the tests (a Swift constant rather than a SwiftPM resource: no bundle to find).
///
/// 13 rows → 10 events and 3 skipped rows:
/// - Hangul everywhere, an HTML entity in a title (`&#39;`), numbers where strings are expected (LOT, LAT);
/// - row 10 has no GUNAME and no IS_FREE (its USE_FEE says 무료, so it counts as free) and an empty MAIN_IMG;
/// - row 11 repeats row 1 (same title, place and start date): skipped as a duplicate;
/// - row 12 has an empty TITLE, row 13 the start date "미정": both skipped with their reason;
/// - past events (2025), current ones (running in late 2026) and future ones (2027).
public enum ArchiveSamples {
    public static let seoulEventsJSON = #"""
        {
          "culturalEventInfo": {
            "list_total_count": 13,
            "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"},
            "row": [
              {"CODENAME": "뮤지컬/오페라", "GUNAME": "종로구", "TITLE": "뮤지컬 〈명성황후〉 30주년 기념 공연", "DATE": "2026-11-10~2027-01-04",
               "PLACE": "세종문화회관 대극장", "ORG_NAME": "세종문화회관", "USE_TRGT": "8세 이상 관람가", "USE_FEE": "VIP석 170,000원 / R석 140,000원",
               "PLAYER": "김소현, 신영숙", "PROGRAM": "", "ETC_DESC": "", "ORG_LINK": "https://www.sejongpac.or.kr/portal/performance/performance/view.do?menuNo=200004",
               "MAIN_IMG": "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=a1", "RGSTDATE": "2026-09-01", "TICKET": "기관",
               "STRTDATE": "2026-11-10 00:00:00.0", "END_DATE": "2027-01-04 00:00:00.0", "THEMECODE": "기타", "LOT": "37.5725", "LAT": "126.9769",
               "IS_FREE": "유료", "HMPG_ADDR": "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=150001"},
              {"CODENAME": "축제-문화/예술", "GUNAME": "중구", "TITLE": "2026 서울빛초롱축제", "DATE": "2026-12-11~2027-01-03",
               "PLACE": "청계천 일대", "ORG_NAME": "서울관광재단", "USE_TRGT": "누구나", "USE_FEE": "", "PLAYER": "", "PROGRAM": "등 전시, 소원등 달기",
               "ETC_DESC": "", "ORG_LINK": "https://www.seoulfestival.org", "MAIN_IMG": "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=a2",
               "RGSTDATE": "2026-10-15", "TICKET": "시민", "STRTDATE": "2026-12-11 00:00:00.0", "END_DATE": "2027-01-03 00:00:00.0",
               "THEMECODE": "가족 문화행사", "LOT": "37.5690", "LAT": "126.9784", "IS_FREE": "무료",
               "HMPG_ADDR": "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=150002"},
              {"CODENAME": "전시/미술", "GUNAME": "종로구", "TITLE": "〈한국 근현대 회화 100선〉", "DATE": "2026-09-01~2027-02-28",
               "PLACE": "국립현대미술관 서울", "ORG_NAME": "국립현대미술관", "USE_TRGT": "누구나", "USE_FEE": "2,000원", "PLAYER": "", "PROGRAM": "",
               "ETC_DESC": "매주 수·토 야간 개장", "ORG_LINK": "https://www.mmca.go.kr", "MAIN_IMG": "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=a3",
               "RGSTDATE": "2026-08-20", "TICKET": "기관", "STRTDATE": "2026-09-01 00:00:00.0", "END_DATE": "2027-02-28 00:00:00.0",
               "THEMECODE": "기타", "LOT": 37.5788, "LAT": 126.9800, "IS_FREE": "유료",
               "HMPG_ADDR": "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=150003"},
              {"CODENAME": "클래식", "GUNAME": "서초구", "TITLE": "서울시립교향악단 2027 신년음악회", "DATE": "2027-01-09~2027-01-09",
               "PLACE": "예술의전당 콘서트홀", "ORG_NAME": "서울시립교향악단", "USE_TRGT": "초등학생 이상", "USE_FEE": "R석 80,000원 / S석 60,000원",
               "PLAYER": "서울시립교향악단", "PROGRAM": "베토벤 교향곡 제9번", "ETC_DESC": "", "ORG_LINK": "https://www.seoulphil.or.kr",
               "MAIN_IMG": "", "RGSTDATE": "2026-11-01", "TICKET": "기관", "STRTDATE": "2027-01-09 00:00:00.0", "END_DATE": "2027-01-09 00:00:00.0",
               "THEMECODE": "기타", "LOT": "37.4786", "LAT": "127.0115", "IS_FREE": "유료", "HMPG_ADDR": ""},
              {"CODENAME": "축제-전통/역사", "GUNAME": "중구", "TITLE": "2025 정동야행", "DATE": "2025-05-23~2025-05-24",
               "PLACE": "정동 일대", "ORG_NAME": "중구청", "USE_TRGT": "누구나", "USE_FEE": "", "PLAYER": "", "PROGRAM": "야간 개방, 해설 투어",
               "ETC_DESC": "", "ORG_LINK": "https://www.junggu.seoul.kr", "MAIN_IMG": "", "RGSTDATE": "2025-04-30", "TICKET": "시민",
               "STRTDATE": "2025-05-23 00:00:00.0", "END_DATE": "2025-05-24 00:00:00.0", "THEMECODE": "기타", "LOT": "37.5658", "LAT": "126.9751",
               "IS_FREE": "무료", "HMPG_ADDR": ""},
              {"CODENAME": "축제-자연/경관", "GUNAME": "영등포구", "TITLE": "서울세계불꽃축제 2025", "DATE": "2025-09-27~2025-09-27",
               "PLACE": "여의도한강공원", "ORG_NAME": "한화", "USE_TRGT": "누구나", "USE_FEE": "", "PLAYER": "", "PROGRAM": "", "ETC_DESC": "",
               "ORG_LINK": "", "MAIN_IMG": "", "RGSTDATE": "2025-09-01", "TICKET": "시민", "STRTDATE": "2025-09-27 00:00:00.0",
               "END_DATE": "2025-09-27 00:00:00.0", "THEMECODE": "기타", "LOT": "37.5284", "LAT": "126.9327", "IS_FREE": "무료", "HMPG_ADDR": ""},
              {"CODENAME": "교육/체험", "GUNAME": "마포구", "TITLE": "어린이 국악 놀이터 〈장단 맞춰 둥기둥〉", "DATE": "2026-11-01~2026-12-27",
               "PLACE": "마포아트센터 플레이맥", "ORG_NAME": "마포문화재단", "USE_TRGT": "7세~12세 어린이 및 보호자", "USE_FEE": "무료",
               "PLAYER": "", "PROGRAM": "장구 체험, 민요 따라 부르기", "ETC_DESC": "사전 예약", "ORG_LINK": "https://www.mfac.or.kr", "MAIN_IMG": "",
               "RGSTDATE": "2026-10-10", "TICKET": "시민", "STRTDATE": "2026-11-01 00:00:00.0", "END_DATE": "2026-12-27 00:00:00.0",
               "THEMECODE": "어린이/청소년 문화행사", "LOT": "37.5497", "LAT": "126.9446", "IS_FREE": "무료", "HMPG_ADDR": ""},
              {"CODENAME": "연극", "GUNAME": "종로구", "TITLE": "연극 &#39;햄릿&#39;", "DATE": "2026-11-20~2026-12-20",
               "PLACE": "아르코예술극장 대극장", "ORG_NAME": "한국문화예술위원회", "USE_TRGT": "14세 이상", "USE_FEE": "전석 50,000원",
               "PLAYER": "", "PROGRAM": "", "ETC_DESC": "", "ORG_LINK": "https://www.arko.or.kr/theater", "MAIN_IMG": "", "RGSTDATE": "2026-10-01",
               "TICKET": "기관", "STRTDATE": "2026-11-20 00:00:00.0", "END_DATE": "2026-12-20 00:00:00.0", "THEMECODE": "기타",
               "LOT": "37.5813", "LAT": "127.0030", "IS_FREE": "유료", "HMPG_ADDR": ""},
              {"CODENAME": "콘서트", "GUNAME": "송파구", "TITLE": "서울재즈페스티벌 2027", "DATE": "2027-05-22~2027-05-24",
               "PLACE": "올림픽공원", "ORG_NAME": "프라이빗커브", "USE_TRGT": "누구나", "USE_FEE": "1일권 176,000원", "PLAYER": "", "PROGRAM": "",
               "ETC_DESC": "", "ORG_LINK": "https://www.seouljazz.co.kr", "MAIN_IMG": "", "RGSTDATE": "2026-11-15", "TICKET": "기관",
               "STRTDATE": "2027-05-22 00:00:00.0", "END_DATE": "2027-05-24 00:00:00.0", "THEMECODE": "기타", "LOT": "37.5206", "LAT": "127.1214",
               "IS_FREE": "유료", "HMPG_ADDR": ""},
              {"CODENAME": "전시/미술", "TITLE": "DDP 디자인 전시 〈서울의 색〉", "DATE": "2026-10-01~2026-12-31",
               "PLACE": "동대문디자인플라자(DDP)", "ORG_NAME": "서울디자인재단", "USE_TRGT": "누구나", "USE_FEE": "무료",
               "MAIN_IMG": "", "STRTDATE": "2026-10-01 00:00:00.0", "END_DATE": "2026-12-31 00:00:00.0"},
              {"CODENAME": "뮤지컬/오페라", "GUNAME": "종로구", "TITLE": "뮤지컬 〈명성황후〉 30주년 기념 공연", "DATE": "2026-11-10~2027-01-04",
               "PLACE": "세종문화회관 대극장", "ORG_NAME": "세종문화회관", "USE_TRGT": "8세 이상 관람가", "USE_FEE": "VIP석 170,000원 / R석 140,000원",
               "RGSTDATE": "2026-09-02", "STRTDATE": "2026-11-10 00:00:00.0", "END_DATE": "2027-01-04 00:00:00.0", "IS_FREE": "유료"},
              {"CODENAME": "국악", "GUNAME": "성북구", "TITLE": "", "DATE": "2026-12-05~2026-12-05", "PLACE": "성북구립미술관",
               "STRTDATE": "2026-12-05 00:00:00.0", "END_DATE": "2026-12-05 00:00:00.0", "IS_FREE": "무료"},
              {"CODENAME": "축제-전통/역사", "GUNAME": "중구", "TITLE": "남산골 한옥마을 전통혼례 재현", "DATE": "미정",
               "PLACE": "남산골한옥마을", "ORG_NAME": "남산골한옥마을", "USE_TRGT": "누구나", "USE_FEE": "", "STRTDATE": "미정", "END_DATE": "",
               "IS_FREE": "무료"}
            ]
          }
        }
        """#
}
