package datagen

// tagClassesText lists the tag classes, one a line as name|parent; the
// root Thing has no parent. Names are DBpedia ontology classes, as LDBC's.
const tagClassesText = `Thing|
Agent|Thing
Person|Agent
Artist|Person
MusicalArtist|Artist
Writer|Artist
Actor|Artist
Athlete|Person
SoccerPlayer|Athlete
TennisPlayer|Athlete
BasketballPlayer|Athlete
Politician|Person
OfficeHolder|Person
Scientist|Person
Organisation|Agent
Company|Organisation
SportsTeam|Organisation
Band|Organisation
Work|Thing
MusicalWork|Work
Album|MusicalWork
Single|MusicalWork
Film|Work
Book|Work
Software|Work
TelevisionShow|Work
Place|Thing
Country|Place
City|Place
Event|Thing
SportsEvent|Event
MilitaryConflict|Event`

// tagsText lists tags per class, one class a line as class|tag tag ...
// Tag names are DBpedia resource names, as LDBC's.
const tagsText = `MusicalArtist|Bob_Dylan Elvis_Presley Michael_Jackson Madonna Frank_Sinatra Johnny_Cash Elton_John Bruce_Springsteen Bob_Marley Ray_Charles Eminem Jay-Z Shakira Enrique_Iglesias Celine_Dion Kylie_Minogue
Writer|William_Shakespeare Charles_Dickens Mark_Twain Leo_Tolstoy Fyodor_Dostoyevsky Jane_Austen Ernest_Hemingway Gabriel_Garcia_Marquez Franz_Kafka Victor_Hugo J._R._R._Tolkien George_Orwell Rabindranath_Tagore Lu_Xun
Actor|Marlon_Brando Charlie_Chaplin Audrey_Hepburn Marilyn_Monroe Tom_Hanks Meryl_Streep Amitabh_Bachchan Jackie_Chan Shah_Rukh_Khan Robert_De_Niro Bruce_Lee Sophia_Loren
SoccerPlayer|Pele Diego_Maradona Lionel_Messi Cristiano_Ronaldo Zinedine_Zidane Johan_Cruyff Franz_Beckenbauer Ronaldinho David_Beckham Didier_Drogba
TennisPlayer|Roger_Federer Rafael_Nadal Serena_Williams Novak_Djokovic Andre_Agassi Pete_Sampras Steffi_Graf Maria_Sharapova
BasketballPlayer|Michael_Jordan Kobe_Bryant LeBron_James Magic_Johnson Yao_Ming Dirk_Nowitzki
Politician|Abraham_Lincoln Winston_Churchill Mahatma_Gandhi Nelson_Mandela Barack_Obama Mao_Zedong Vladimir_Putin Angela_Merkel Hamid_Karzai Jawaharlal_Nehru Napoleon Julius_Caesar
OfficeHolder|George_W._Bush Bill_Clinton Tony_Blair Nicolas_Sarkozy Hugo_Chavez Dilma_Rousseff
Scientist|Albert_Einstein Isaac_Newton Charles_Darwin Marie_Curie Galileo_Galilei Nikola_Tesla Stephen_Hawking Alan_Turing
Company|Google Apple_Inc. Microsoft Facebook Toyota Samsung_Electronics Nokia Coca-Cola IBM Sony
SportsTeam|FC_Barcelona Real_Madrid_C.F. Manchester_United_F.C. Juventus_F.C. FC_Bayern_Munich Los_Angeles_Lakers New_York_Yankees A.C._Milan
Band|The_Beatles The_Rolling_Stones Queen_(band) U2 Pink_Floyd Led_Zeppelin ABBA Metallica Nirvana_(band) Coldplay
Album|Thriller_(album) Abbey_Road The_Dark_Side_of_the_Moon Back_in_Black Nevermind Rumours_(album)
Single|Imagine_(song) Yesterday_(song) Bohemian_Rhapsody Hotel_California Like_a_Rolling_Stone Smells_Like_Teen_Spirit
Film|The_Godfather Titanic_(1997_film) Star_Wars Casablanca_(film) Avatar_(2009_film) Pulp_Fiction The_Matrix Schindler's_List Gone_with_the_Wind_(film) Slumdog_Millionaire
Book|Don_Quixote War_and_Peace Hamlet Pride_and_Prejudice One_Hundred_Years_of_Solitude The_Lord_of_the_Rings Harry_Potter Nineteen_Eighty-Four
Software|Linux Microsoft_Windows Android_(operating_system) Mozilla_Firefox Wikipedia Python_(programming_language) Java_(programming_language)
TelevisionShow|The_Simpsons Friends Lost_(TV_series) Seinfeld The_Sopranos Doctor_Who
Country|Afghanistan Iraq Israel Cuba Tibet North_Korea Haiti Greece
City|Jerusalem Venice Las_Vegas Hollywood Rome Kathmandu
SportsEvent|FIFA_World_Cup Olympic_Games Tour_de_France Super_Bowl Wimbledon_Championships Cricket_World_Cup
MilitaryConflict|World_War_II World_War_I Vietnam_War Iraq_War American_Civil_War Cold_War`
