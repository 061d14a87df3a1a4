package datagen

// placesText lists the countries persons live in, one a line:
//
//	continent|country|languages|name group|share of persons (%)|cities
//
// Names follow DBpedia resource names (spaces as '_'), as LDBC's do. The
// shares are rough population-weighted internet users around 2010, as in
// LDBC's dictionaries (which favour India and China).
const placesText = `Asia|India|hi,en|in|13|Mumbai,Delhi,Bangalore,Kolkata,Chennai,Hyderabad,Pune,Ahmedabad
Asia|China|zh|zh|14|Beijing,Shanghai,Guangzhou,Shenzhen,Chengdu,Wuhan,Hangzhou,Nanjing
Asia|Japan|ja|ja|3|Tokyo,Osaka,Yokohama,Nagoya,Sapporo,Kyoto
Asia|South_Korea|ko|ko|1.5|Seoul,Busan,Incheon,Daegu
Asia|Indonesia|id|id|3|Jakarta,Surabaya,Bandung,Medan
Asia|Vietnam|vi|vi|2|Hanoi,Ho_Chi_Minh_City,Da_Nang,Haiphong
Asia|Sri_Lanka|si,ta|lk|0.6|Colombo,Kandy,Galle,Jaffna
Asia|Pakistan|ur,en|pk|3|Karachi,Lahore,Islamabad,Faisalabad
Asia|Thailand|th|th|1.5|Bangkok,Chiang_Mai,Phuket,Pattaya
Asia|Philippines|tl,en|ph|2|Manila,Quezon_City,Cebu_City,Davao_City
Asia|Turkey|tr|tr|1.5|Istanbul,Ankara,Izmir,Bursa
Asia|Iran|fa|fa|1.5|Tehran,Mashhad,Isfahan,Shiraz
Asia|Saudi_Arabia|ar|ar|0.8|Riyadh,Jeddah,Mecca,Dammam
Europe|Germany|de|de|2.5|Berlin,Hamburg,Munich,Cologne,Frankfurt,Stuttgart
Europe|United_Kingdom|en|en|2.5|London,Birmingham,Manchester,Glasgow,Liverpool,Leeds
Europe|France|fr|fr|2|Paris,Marseille,Lyon,Toulouse,Nice,Bordeaux
Europe|Italy|it|it|2|Rome,Milan,Naples,Turin,Florence,Bologna
Europe|Spain|es|es|1.5|Madrid,Barcelona,Valencia,Seville,Bilbao
Europe|Portugal|pt|pt|0.5|Lisbon,Porto,Braga,Coimbra
Europe|Poland|pl|pl|1|Warsaw,Krakow,Lodz,Wroclaw,Gdansk
Europe|Netherlands|nl|nl|0.8|Amsterdam,Rotterdam,The_Hague,Utrecht
Europe|Sweden|sv|sv|0.5|Stockholm,Gothenburg,Malmo,Uppsala
Europe|Russia|ru|ru|3|Moscow,Saint_Petersburg,Novosibirsk,Yekaterinburg,Kazan
Europe|Ukraine|uk,ru|ru|1|Kiev,Kharkiv,Odessa,Lviv
North_America|United_States|en|en|6|New_York_City,Los_Angeles,Chicago,Houston,Phoenix,Philadelphia,San_Francisco,Seattle
North_America|Canada|en,fr|en|1|Toronto,Montreal,Vancouver,Calgary,Ottawa
North_America|Mexico|es|es|2.5|Mexico_City,Guadalajara,Monterrey,Puebla
South_America|Brazil|pt|pt|4|Sao_Paulo,Rio_de_Janeiro,Brasilia,Salvador,Fortaleza,Belo_Horizonte
South_America|Argentina|es|es|1|Buenos_Aires,Cordoba,Rosario,Mendoza
South_America|Colombia|es|es|1|Bogota,Medellin,Cali,Barranquilla
South_America|Chile|es|es|0.5|Santiago,Valparaiso,Concepcion
Africa|Egypt|ar|ar|1.5|Cairo,Alexandria,Giza,Luxor
Africa|Nigeria|en|af|3|Lagos,Abuja,Kano,Ibadan
Africa|Kenya|sw,en|af|1|Nairobi,Mombasa,Kisumu,Nakuru
Africa|South_Africa|en,af|en|1|Johannesburg,Cape_Town,Durban,Pretoria
Africa|Morocco|ar,fr|ar|0.8|Casablanca,Rabat,Marrakesh,Fez
Oceania|Australia|en|en|1|Sydney,Melbourne,Brisbane,Perth,Adelaide
Oceania|New_Zealand|en|en|0.3|Auckland,Wellington,Christchurch`

// browsersText lists browsers with their share of persons (%), as LDBC's
// browser dictionary (2010-era market shares).
const browsersText = `Internet Explorer|41
Firefox|26
Chrome|20
Safari|8
Opera|5`

// emailDomainsText lists the e-mail domains of person addresses.
const emailDomainsText = `gmail.com yahoo.com hotmail.com gmx.com zoho.com yandex.com mail.com aol.com outlook.com 163.com`

// companyPatternsText lists the patterns of company names per country; %s
// is the country name.
const companyPatternsText = `%s_Airlines|%s_Telecom|Bank_of_%s|%s_Post|%s_Railways|%s_Energy|%s_Motors|%s_Steel|%s_Broadcasting_Corporation|%s_Insurance|%s_Foods|%s_Pharmaceuticals`

// universityPatternsText lists the patterns of university names per city;
// %s is the city name.
const universityPatternsText = `University_of_%s|%s_Institute_of_Technology`
